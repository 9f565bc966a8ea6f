#pragma once
/// @file frame_check.hpp
/// Does a rendered frame show the harbour? Classifies pixels by colour into
/// the classes the scene is built from, so a headless CI run can tell a
/// harbour from a black or empty frame.

#include <cstddef>
#include <cstdint>
#include <string>

namespace demo {

/// Fractions (0..1) of the frame's pixels in each colour class.
struct ColourFractions {
  double water = 0;  ///< dark blue-green to teal (the sea)
  double hull = 0;   ///< saturated red, orange, yellow (hull paint)
  double pier = 0;   ///< weathered wood brown (pier decks and piles)
  double sky = 0;    ///< light, pale blue
  [[nodiscard]] std::string describe() const;
};

/// Classifies `width` x `height` pixels of 8-bit RGB, `rowStride` bytes
/// apart.
ColourFractions classifyPixels(const std::uint8_t* rgb, std::size_t width, std::size_t height, std::size_t rowStride);

/// Minimum fractions for a frame that "shows the scene": mostly water, and at
/// least a hull and a pier in view.
struct SceneThresholds {
  double water = 0.15;
  double hull = 0.002;
  double pier = 0.002;
};

/// True when `f` meets every threshold.
bool showsScene(const ColourFractions& f, const SceneThresholds& t = {});

}  // namespace demo
