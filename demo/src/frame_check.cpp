#include "frame_check.hpp"

#include <algorithm>
#include <cstdio>

namespace demo {
namespace {

/// Hue [deg, 0..360), saturation and value (0..1) of an 8-bit RGB colour.
struct Hsv {
  double h, s, v;
};
Hsv toHsv(int r8, int g8, int b8) {
  const double r = r8 / 255.0, g = g8 / 255.0, b = b8 / 255.0;
  const double hi = std::max({r, g, b}), lo = std::min({r, g, b}), d = hi - lo;
  double h = 0;
  if (d > 0) {
    if (hi == r)
      h = 60 * ((g - b) / d);
    else if (hi == g)
      h = 60 * ((b - r) / d + 2);
    else
      h = 60 * ((r - g) / d + 4);
    if (h < 0) h += 360;
  }
  return {h, hi > 0 ? d / hi : 0, hi};
}

}  // namespace

std::string ColourFractions::describe() const {
  char text[160];
  std::snprintf(text, sizeof text, "water %.1f%%, hull %.2f%%, pier %.2f%%, sky %.1f%%", 100 * water, 100 * hull,
                100 * pier, 100 * sky);
  return text;
}

ColourFractions classifyPixels(const std::uint8_t* rgb, std::size_t width, std::size_t height, std::size_t rowStride) {
  std::size_t water = 0, hull = 0, pier = 0, sky = 0;
  for (std::size_t y = 0; y < height; ++y) {
    const std::uint8_t* row = rgb + y * rowStride;
    for (std::size_t x = 0; x < width; ++x) {
      const Hsv c = toHsv(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
      // The classes follow the scene's palette (scene_builder.cpp, water_renderer.cpp,
      // media/boats.mtl) under the sun and the haze.
      if (c.h >= 165 && c.h <= 215 && c.s >= 0.35 && c.v >= 0.08 && c.v <= 0.75)
        ++water;
      else if (c.h >= 185 && c.h <= 230 && c.s < 0.35 && c.v > 0.7)
        ++sky;
      else if ((c.h <= 60 || c.h >= 345) && c.s >= 0.6 && c.v >= 0.3)
        ++hull;
      else if (c.h >= 15 && c.h <= 45 && c.s >= 0.25 && c.s < 0.6 && c.v >= 0.12 && c.v <= 0.6)
        ++pier;
    }
  }
  const double n = double(std::max<std::size_t>(1, width * height));
  return {double(water) / n, double(hull) / n, double(pier) / n, double(sky) / n};
}

bool showsScene(const ColourFractions& f, const SceneThresholds& t) {
  return f.water >= t.water && f.hull >= t.hull && f.pier >= t.pier;
}

}  // namespace demo
