#pragma once
// A boat of media/ weighed as the harbour demo weighs it, for the tests of
// turning and propulsion (keel_example_tests).

#include <keel/keel.hpp>

#include <btBulletDynamicsCommon.h>

#include <memory>

namespace keel::test {

/// A boat of media/ at its design waterline: its hull in its body frame and its mass.
struct Boat {
  std::shared_ptr<const Hull> file;  ///< the file's frame
  std::shared_ptr<const Hull> hull;  ///< body frame
  MassProperties mass;
  double draft_m = 0;  ///< at the design waterline (the file's y = 0)
};

/// Weighs media/`file` as the harbour demo does (demo/src/boat_type.cpp): a
/// shell of `shell_m`, an engine, and ballast below half the draft making up
/// the displacement at the design waterline in sea water; with `shell_m` 0,
/// uniformly dense, as a hull read from its file (game::loadHull) is.
Boat weigh(const char* file, double shell_m, double shellDensity_kgpm3, double engine_kg, const btVector3& engine_m);

}  // namespace keel::test
