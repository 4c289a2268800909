// shaders/compute/bokeh_common.glsl — what the gl-compute backend's bokeh passes share
// (satdof/reference/bokeh.h defines the list they build; which pixels are highlights,
// bokeh_select.glsl). The list is a stream compaction (GPU Gems 3, 39.3.1) in pixel order:
// the image is cut into segments of SEGMENT consecutive pixels of a row, each one work
// group's (four pixels an invocation); a segment's highlights go after those of every
// segment before it (row-major), in their order inside it.
layout(std430, binding = 0) buffer Flags { uint flags[]; };  // 4 bits an invocation: its pixels
layout(std430, binding = 1) buffer Counts {
  uint found;  // highlights before the cap
  uint kept;   // min(found, cap): the sprites
};
// The kept highlights in pixel order: element i's depth key and pixel index, and its place
// in the sorted list (bokeh_rank.comp).
layout(std430, binding = 2) buffer Keys { uint keys[]; };
layout(std430, binding = 3) buffer Pixels { uint pixels[]; };
layout(std430, binding = 4) buffer Ranks { uint ranks[]; };
// Per segment (row-major): .x its highlights, .y the highlights of the segments before it.
layout(std430, binding = 5) buffer Segments { uvec2 segments[]; };

const uint kSegment = SEGMENT;           // pixels a segment
const uint kSegmentGroup = SEGMENT / 4;  // its work group's invocations
uniform int uSegmentsPerRow;

// The passes over segments run work group (x, y) on segment x of row y; the segment's
// index, and the first of the four pixels of this invocation.
uint segmentIndex() { return gl_WorkGroupID.y * uint(uSegmentsPerRow) + gl_WorkGroupID.x; }
int segmentFirstPixel() { return int(gl_WorkGroupID.x * kSegment + 4u * gl_LocalInvocationID.x); }
