// Orbit camera (see camera.h): spherical coordinates around a target turned into
// look-at and perspective matrices.
#include "engine/scene/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>

namespace satdof::scene {

glm::vec3 Camera::position() const {
  const float cp = std::cos(pitch);
  const glm::vec3 offset(cp * std::sin(yaw), std::sin(pitch), cp * std::cos(yaw));
  return target + distance * offset;
}

glm::vec3 Camera::forward() const {
  const float cp = std::cos(pitch);
  return -glm::vec3(cp * std::sin(yaw), std::sin(pitch), cp * std::cos(yaw));
}

glm::mat4 Camera::view() const {
  // Pitch never reaches the poles, so world up is never parallel to the view direction.
  return glm::lookAt(position(), target, glm::vec3(0.0f, 1.0f, 0.0f));
}

float Camera::fovYFor(float aspect) const {
  aspect = std::max(aspect, 1e-6f);
  if (aspect >= kFramedAspect) return fovY;
  // Same horizontal half-width as at kFramedAspect: tan(x/2) = aspect * tan(y/2).
  const float tanHalfX = std::tan(0.5f * fovY) * kFramedAspect;
  return std::min(2.0f * std::atan(tanHalfX / aspect), glm::radians(150.0f));
}

glm::mat4 Camera::projection(float aspect) const {
  return glm::perspective(fovYFor(aspect), std::max(aspect, 1e-6f), nearPlane, farPlane);
}

glm::mat4 Camera::apertureView(glm::vec2 offset) const {
  // In view space the eye moves by +offset: every point moves by -offset.
  return glm::translate(glm::mat4(1.0f), glm::vec3(-offset, 0.0f)) * view();
}

glm::mat4 Camera::apertureProjection(float aspect, glm::vec2 offset, float focalDistance) const {
  aspect = std::max(aspect, 1e-6f);
  const float halfHeight = std::tan(0.5f * fovYFor(aspect)) * focalDistance, halfWidth = halfHeight * aspect;
  // The window at the focal plane, seen from the moved eye, scaled back to the near plane.
  const float s = nearPlane / focalDistance;
  return glm::frustum((-halfWidth - offset.x) * s, (halfWidth - offset.x) * s, (-halfHeight - offset.y) * s,
                      (halfHeight - offset.y) * s, nearPlane, farPlane);
}

float Camera::pixelsPerUnitAt(float depth, float aspect, int imageHeight) const {
  return 0.5f * float(imageHeight) / (std::tan(0.5f * fovYFor(aspect)) * depth);
}

float Camera::viewDepth(glm::vec3 worldPoint) const {
  return glm::dot(worldPoint - position(), forward());
}

void Camera::orbit(float dxPixels, float dyPixels) {
  yaw -= dxPixels * kRadiansPerPixel;
  // Keep yaw in (-pi, pi] so it does not grow without bound while dragging.
  constexpr float kPi = std::numbers::pi_v<float>;
  yaw = std::remainder(yaw, 2.0f * kPi);
  if (yaw <= -kPi) yaw += 2.0f * kPi;
  pitch = std::clamp(pitch + dyPixels * kRadiansPerPixel, kMinPitch, kMaxPitch);
}

void Camera::zoom(float wheel) {
  distance = std::clamp(distance * std::pow(kZoomStep, wheel), minDistance, maxDistance);
}

void Camera::pan(float dxPixels, float dyPixels) {
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, f);
  const float scale = kPanPerPixel * distance;
  target += (-dxPixels * right + dyPixels * up) * scale;
}

}  // namespace satdof::scene
