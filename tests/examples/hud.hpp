#pragma once
// Heel, trim and draft for a HUD (docs/integration.md, "Heel, trim and draft").

#include <keel/water_action.hpp>

#include <string>

namespace game {

/// "heel 10.0 deg  trim -1.5 deg  draft 0.42 m" for a boat modelled with
/// its bow along +x and its deck up +y.
std::string hudLine(const keel::WaterAction& boat);

}  // namespace game
