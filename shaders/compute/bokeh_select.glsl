// shaders/compute/bokeh_select.glsl — which pixels are bokeh highlights: the brightness
// tests of satdof/reference/bokeh.h, line for line, in integers (the same pixels as the
// CPU and CUDA): the encoded luminance above the floor (bokehLuminance), the linear
// luminance (bokehLinearByte, bokehLinearLuminance) and the ring around the pixel that it
// must outshine (bokehRingRadius, bokehOutshines). Needs, before it is included:
//   uvec3 bokehColourAt(ivec2 p)   the colour's bytes at a pixel inside the image.

// 4080 (c / 255)^2.2, rounded: sixteenths of a linear byte (bokehLinearByte).
const uint kBokehLinearByte[256] = uint[256](
  0u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 2u, 3u, 3u, 4u,
  5u, 6u, 7u, 8u, 9u, 11u, 12u, 13u, 15u, 17u, 19u, 21u,
  23u, 25u, 27u, 29u, 32u, 34u, 37u, 40u, 42u, 45u, 48u, 52u,
  55u, 58u, 62u, 66u, 69u, 73u, 77u, 81u, 85u, 90u, 94u, 99u,
  104u, 108u, 113u, 118u, 123u, 129u, 134u, 140u, 145u, 151u, 157u, 163u,
  169u, 175u, 182u, 188u, 195u, 202u, 209u, 216u, 223u, 230u, 237u, 245u,
  253u, 260u, 268u, 276u, 284u, 293u, 301u, 310u, 318u, 327u, 336u, 345u,
  355u, 364u, 373u, 383u, 393u, 403u, 413u, 423u, 433u, 444u, 454u, 465u,
  476u, 487u, 498u, 509u, 520u, 532u, 543u, 555u, 567u, 579u, 591u, 604u,
  616u, 629u, 642u, 655u, 668u, 681u, 694u, 708u, 721u, 735u, 749u, 763u,
  777u, 791u, 806u, 820u, 835u, 850u, 865u, 880u, 896u, 911u, 927u, 942u,
  958u, 974u, 991u, 1007u, 1023u, 1040u, 1057u, 1074u, 1091u, 1108u, 1125u, 1143u,
  1161u, 1178u, 1196u, 1214u, 1233u, 1251u, 1270u, 1288u, 1307u, 1326u, 1345u, 1365u,
  1384u, 1404u, 1423u, 1443u, 1463u, 1484u, 1504u, 1524u, 1545u, 1566u, 1587u, 1608u,
  1629u, 1651u, 1672u, 1694u, 1716u, 1738u, 1760u, 1782u, 1805u, 1827u, 1850u, 1873u,
  1896u, 1919u, 1943u, 1966u, 1990u, 2014u, 2038u, 2062u, 2087u, 2111u, 2136u, 2160u,
  2185u, 2211u, 2236u, 2261u, 2287u, 2313u, 2338u, 2365u, 2391u, 2417u, 2444u, 2470u,
  2497u, 2524u, 2551u, 2579u, 2606u, 2634u, 2662u, 2690u, 2718u, 2746u, 2774u, 2803u,
  2832u, 2861u, 2890u, 2919u, 2949u, 2978u, 3008u, 3038u, 3068u, 3098u, 3128u, 3159u,
  3190u, 3220u, 3251u, 3283u, 3314u, 3345u, 3377u, 3409u, 3441u, 3473u, 3505u, 3538u,
  3571u, 3603u, 3636u, 3669u, 3703u, 3736u, 3770u, 3804u, 3838u, 3872u, 3906u, 3941u,
  3975u, 4010u, 4045u, 4080u);

uint bokehLuminance(uvec3 c) { return (54u * c.r + 183u * c.g + 19u * c.b) >> 8u; }

uint bokehLinearLuminance(uvec3 c) {
  return (54u * kBokehLinearByte[c.r] + 183u * kBokehLinearByte[c.g] + 19u * kBokehLinearByte[c.b]) >> 8u;
}

int bokehRingRadius(int width) { return width / 96 + 1; }

// Of the 8k pixels of the square ring at distance k around p (those inside the image), at
// most k have a linear luminance of at least 16 / contrast of p's. The ring is walked as the
// reference walks it: each side from its corner, 2k pixels, clockwise from the top left.
bool bokehOutshines(ivec2 p, ivec2 size, uint contrast) {
  const int k = bokehRingRadius(size.x);
  const uint own = 16u * bokehLinearLuminance(bokehColourAt(p));
  const ivec2 corners[4] = ivec2[4](ivec2(-k, -k), ivec2(k, -k), ivec2(k, k), ivec2(-k, k));
  const ivec2 steps[4] = ivec2[4](ivec2(1, 0), ivec2(0, 1), ivec2(-1, 0), ivec2(0, -1));
  int bright = 0;
  for (int side = 0; side < 4; ++side) {
    ivec2 q = p + corners[side];
    for (int t = 0; t < 2 * k; ++t, q += steps[side]) {
      if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, size))) continue;  // nothing beyond the image
      if (own <= contrast * bokehLinearLuminance(bokehColourAt(q))) {
        if (++bright > k) return false;
      }
    }
  }
  return true;
}
