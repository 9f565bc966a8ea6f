#include "hud.hpp"

#include <keel/attitude.hpp>

#include <cstdio>
#include <numbers>

namespace game {

std::string hudLine(const keel::WaterAction& boat, const keel::HullAxes& axes) {
  // Keel does not know which way a hull points: the hull's axes, body frame.
  const keel::Attitude a = keel::attitude(boat, axes);
  const double degrees = 180 / std::numbers::pi;
  char text[96];
  std::snprintf(text, sizeof text, "heel %.1f deg  trim %.1f deg  draft %.2f m", a.heel_rad * degrees,
                a.trim_rad * degrees, double(a.draft_m));
  return text;
}

}  // namespace game
