// Where the harbour's boats start: each scenario's boats, their berths and
// their mooring lines.

#include "harbour.hpp"
#include "harbour_layout.hpp"

#include "debris.hpp"

#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/Dynamics/btDynamicsWorld.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace demo {

Boat& Harbour::spawnAnywhere(const std::string& kind) {
  const BoatType& type = *types_.at(kind);
  std::uniform_real_distribution<double> x(basin_.minX_m + 12, basin_.maxX_m - 12);
  std::uniform_real_distribution<double> z(basin_.minZ_m + 30, basin_.maxZ_m - 10);
  std::uniform_real_distribution<double> heading(0, 360);
  // Try a few places; take the one farthest from every other boat.
  double bestX = 0, bestZ = 10, bestGap = -1;
  for (int attempt = 0; attempt < 40; ++attempt) {
    const double px = x(random_), pz = z(random_);
    double gap = 1e9;
    for (const auto& other : boats_) {
      const btVector3 p = other->body->getCenterOfMassPosition();
      gap = std::min(gap, std::hypot(p.x() - px, p.z() - pz) - other->type->length_m / 2);
    }
    gap -= type.length_m / 2;
    if (gap > bestGap) bestX = px, bestZ = pz, bestGap = gap;
    if (gap > 8) break;
  }
  return spawn(kind, bestX, bestZ, heading(random_));
}

void Harbour::moor(Boat& boat, int side) {
  const BoatType& type = *boat.type;
  const btTransform& pose = boat.body->getCenterOfMassTransform();
  const btScalar deck = btScalar(type.hull->boundsMax().y() * 0.8);
  const btScalar half = btScalar(type.beam_m / 2) * btScalar(side);
  for (btScalar along : {btScalar(type.length_m * 0.35), btScalar(-type.length_m * 0.35)}) {
    Mooring line;
    // Placed along the file's axes, turned into the body's.
    const btMatrix3x3& fileAxesInBody = type.fileToBody.getBasis();
    line.cleat_m = fileAxesInBody * btVector3(along, deck, half);
    // The bollard ashore: out from the cleat towards the dock, on the deck.
    const btVector3 cleatWorld = pose * line.cleat_m;
    const btVector3 outwards = pose.getBasis() * (fileAxesInBody * btVector3(0, 0, btScalar(side)));
    line.bollard_m = cleatWorld + outwards * 1.2f;
    line.bollard_m.setY(btScalar(kPierDeckTop_m + 0.4));
    // The line as a 6-DoF spring: slack sideways and along (within +-0.6 m of
    // where it was made fast), free vertically so the boat rides the waves,
    // free in rotation.
    auto spring = std::make_unique<btGeneric6DofSpring2Constraint>(
        *boat.body, btTransform(btQuaternion::getIdentity(), line.cleat_m));
    spring->setLinearLowerLimit(btVector3(-0.6f, 1, -0.6f));
    spring->setLinearUpperLimit(btVector3(0.6f, -1, 0.6f));  // lower > upper: free
    spring->setAngularLowerLimit(btVector3(1, 1, 1));
    spring->setAngularUpperLimit(btVector3(-1, -1, -1));
    const double omega = 2 * std::numbers::pi / 6.0;  // a 6 s surge period on its lines
    for (int axis : {0, 2}) {
      spring->enableSpring(axis, true);
      spring->setStiffness(axis, btScalar(type.mass_kg * omega * omega / 2));
      spring->setDamping(axis, btScalar(type.mass_kg * omega * 0.3));
      spring->setEquilibriumPoint(axis, 0);
    }
    world_->addConstraint(spring.get(), true);
    line.constraint = std::move(spring);
    boat.moorings.push_back(std::move(line));
  }
}

void Harbour::placeScenario() {
  if (options_.scenario == "collide")
    placeCollideScenario();
  else if (options_.scenario == "wake")
    placeWakeScenario();
  else if (options_.scenario == "drop")
    placeDropScenario();
  else
    placeHarbourScenario();
  debris_->scatter(
      options_.debrisCount, options_.scenario, [this](double x, double z, double r) { return freeAt(x, z, r); },
      options_.seed, basin_, water(), time_s_, 1.0 / options_.physicsRate_Hz);
}

void Harbour::placeHarbourScenario() {
  const std::vector<std::string>& kinds = options_.kinds.empty() ? knownKinds() : options_.kinds;
  // Berths: along the piers and the quay (moored), then open water (free).
  struct Berth {
    double x_m, z_m, heading_deg;
    int side;  ///< 0 free, +1 dock to starboard, -1 dock to port
  };
  for (int i = 0; i < options_.boatCount; ++i) {
    const std::string& kind = kinds[std::size_t(i) % kinds.size()];
    const BoatType& type = *types_.at(kind);
    const double half = type.beam_m / 2 + 0.55;
    std::vector<Berth> berths = {
        {2, -8, 0, 0},                                   // free, mid-basin, bow north
        {-20 + kPileRadius_m + 0.2 + half, -30, 0, -1},  // pier A, east side
        {22 - kPileRadius_m - 0.2 - half, -34, 0, 1},    // pier B, west side
        {5, basin_.minZ_m + half, 90, -1},               // quay, bow east
        {-38, 8, 60, 0},                                 // free, west
        {40, 0, 300, 0},                                 // free, east
        {-45, basin_.minZ_m + half, 270, 1},             // quay west, bow west
        {25 + kPileRadius_m + 0.2 + half, -34, 180, 1},  // pier B, east side
    };
    if (std::size_t(i) < berths.size()) {
      const Berth& b = berths[std::size_t(i)];
      Boat& boat = spawn(kind, b.x_m, b.z_m, b.heading_deg);
      if (b.side != 0) moor(boat, b.side);
    } else {
      spawnAnywhere(kind);
    }
  }
}

void Harbour::placeCollideScenario() {
  // A speedboat at full throttle into the head of pier A, a catamaran into a
  // drifting rowboat, and the heavy boats at their berths.
  Boat& speedboat = spawn("speedboat", -22, 22, 0, 9);
  speedboat.helm.throttle = 1;
  Boat& catamaran = spawn("catamaran", 22, 20, 270, 4);
  catamaran.helm.throttle = 0.6;
  spawn("rowboat", 8, 20, 0);
  moor(spawn("tug", 22 - kPileRadius_m - 0.2 - 2.6 - 0.55, -34, 0), 1);
  moor(spawn("barge", 5, basin_.minZ_m + 3.6 + 0.55, 90), -1);
}

void Harbour::placeWakeScenario() {
  // A speedboat at about 7 knots (Froude number 0.4 on its 7 m) up the basin past
  // pier A: its Kelvin wake, transverse and divergent waves, spreads behind
  // it to the rowboat moored there, which rocks in it, and to the debris.
  Boat& speedboat = spawn("speedboat", -12, 14, 0, 4);
  speedboat.helm.throttle = 0.55;  // 22 rev/s: about 2.9 kN at 7 knots, the speed it starts at
  moor(spawn("rowboat", -20 + kPileRadius_m + 0.2 + types_.at("rowboat")->beam_m / 2 + 0.55, -20, 0), -1);
  moor(spawn("tug", 22 - kPileRadius_m - 0.2 - types_.at("tug")->beam_m / 2 - 0.55, -26, 0), 1);
  spawn("catamaran", 8, 2, 200);
}

}  // namespace demo
