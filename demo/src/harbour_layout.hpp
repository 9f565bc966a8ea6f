// The harbour's fixed layout, shared by the files that build it
// (harbour_docks.cpp), place its boats (harbour_scenarios.cpp) and run it
// (harbour.cpp).
#pragma once

namespace demo {

/// Tags in btCollisionObject::getUserIndex2(): what a body is.
inline constexpr int kTagDock = 1;
inline constexpr int kTagBoat = 2;

/// Heights of the harbour's structures [m] (the still water is at 0).
inline constexpr double kSeabed_m = -12;
inline constexpr double kQuayTop_m = 1.8;
inline constexpr double kPierDeckTop_m = 1.35;
inline constexpr double kPierDeckThickness_m = 0.3;
inline constexpr double kPileRadius_m = 0.25;
inline constexpr double kPileSpacing_m = 5;

}  // namespace demo
