#pragma once
// Heel, trim and draft for a HUD (docs/integration.md, "Heel, trim and draft").

#include <keel/attitude.hpp>
#include <keel/water_action.hpp>

#include <string>

namespace game {

/// "heel 10.0 deg  trim -1.5 deg  draft 0.42 m" for a boat whose bow and
/// deck point along `axes` in its body frame: +x and +y by default; a body
/// on its principal axes, MassProperties::axesInBody of the file's.
std::string hudLine(const keel::WaterAction& boat, const keel::HullAxes& axes = {});

}  // namespace game
