// Orbit camera for the demo scene: the eye circles a target point at a given distance.
//
// Mouse drags change yaw and pitch, the wheel changes the distance. Pitch is clamped
// short of the poles so the view never flips, and the distance stays in a sane range.
// Matrices follow the OpenGL conventions (right-handed view space looking down -z,
// clip depth in [-1, 1]), as glm produces them by default.
#pragma once

#include <glm/glm.hpp>

namespace satdof::scene {

struct Camera {
  // Limits applied by orbit() and, by default, zoom().
  static constexpr float kMinPitch = -1.45f;  // radians (about -83 degrees)
  static constexpr float kMaxPitch = 1.45f;
  static constexpr float kMinDistance = 0.5f;
  static constexpr float kMaxDistance = 80.0f;
  static constexpr float kRadiansPerPixel = 0.005f;  // orbit() sensitivity
  static constexpr float kZoomStep = 0.9f;           // distance factor per wheel notch
  static constexpr float kPanPerPixel = 0.0015f;     // pan() speed, per unit of distance

  glm::vec3 target{0.0f};
  float distance = 10.0f;
  float yaw = 0.0f;    // radians about +y; 0 puts the eye on +z of the target
  float pitch = 0.0f;  // radians; positive puts the eye above the target, looking down
  float fovY = glm::radians(40.0f);  // vertical field of view, radians
  float nearPlane = 0.1f;
  float farPlane = 100.0f;
  // zoom()'s range (a loaded scene sets its own for its size).
  float minDistance = kMinDistance, maxDistance = kMaxDistance;

  // Eye position in world space.
  glm::vec3 position() const;
  // Unit vector the camera looks along (from the eye towards the target).
  glm::vec3 forward() const;
  glm::mat4 view() const;
  // aspect = width / height. Narrower than kFramedAspect (a window beside a docked
  // panel, a portrait window), the vertical field of view widens so that what a 16:9
  // image shows left to right stays in view.
  glm::mat4 projection(float aspect) const;
  static constexpr float kFramedAspect = 16.0f / 9.0f;
  float fovYFor(float aspect) const;

  // A thin lens (satdof/reference/lens_truth.h): the eye moved by `offset` scene units
  // along the camera's right and up axes, and a frustum sheared so that the plane at view
  // depth `focalDistance` shows exactly what projection(aspect) shows there.
  glm::mat4 apertureView(glm::vec2 offset) const;
  glm::mat4 apertureProjection(float aspect, glm::vec2 offset, float focalDistance) const;
  // How many pixels one scene unit at view depth `depth` spans in an image `imageHeight`
  // pixels high.
  float pixelsPerUnitAt(float depth, float aspect, int imageHeight) const;

  // Depth of a world-space point along the view direction (the linear depth the scene
  // pass writes, -z in view space). Positive in front of the camera.
  float viewDepth(glm::vec3 worldPoint) const;

  // Mouse drag in pixels: dragging right turns the eye around to the right of the
  // scene (yaw decreases), dragging down raises the eye. Pitch is clamped.
  void orbit(float dxPixels, float dyPixels);
  // Mouse wheel notches: positive moves closer. Distance is clamped.
  void zoom(float wheel);
  // Mouse drag in pixels with the pan button: the target (and the eye with it) follows
  // the cursor sideways and up, at a speed that grows with the distance.
  void pan(float dxPixels, float dyPixels);
};

}  // namespace satdof::scene
