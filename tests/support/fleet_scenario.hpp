#pragma once
// A fleet scenario for the determinism tests (fleet_test.cpp, columns_test.cpp):
// boats of two hulls close enough to collide on a Gerstner sea, stepped as a
// WaterFleet at a thread count or as one WaterAction per boat.
#include "test_hulls.hpp"

#include <cstddef>
#include <functional>
#include <vector>

namespace keel::test {

/// Where a fleet scenario ends.
struct FleetOutcome {
  std::vector<btTransform> transforms;  ///< every body's, in the order added
  std::vector<btVector3> velocities;    ///< their linear velocities [m/s]
  double floodwater_m3 = 0;             ///< water in all the boats' compartments at the end [m^3]
};

/// Called for boat `i` right after it is added, to set it up.
using BoatSetup = std::function<void(std::size_t i, WaterAction& boat, btRigidBody& body, const Hull& hull)>;

/// 24 boats of two hulls in a 6 x 4 grid, close enough to collide, on a
/// Gerstner sea, stepped for 10 s at 60 Hz. `threads` < 0: one WaterAction
/// per boat instead of a fleet. `setup` (may be empty) runs for each boat.
[[nodiscard]] FleetOutcome sailFleet(int threads, const BoatSetup& setup = {});

/// The same transforms and velocities, bit for bit.
[[nodiscard]] bool bitwiseEqual(const FleetOutcome& x, const FleetOutcome& y);

}  // namespace keel::test
