// The determinism tests' fleet scenario (fleet_scenario.hpp).
#include "fleet_scenario.hpp"

#include <cstring>
#include <memory>

namespace keel::test {

FleetOutcome sailFleet(int threads, const BoatSetup& setup) {
  World w;
  const auto surface = gerstnerSea(2.0, 7.0, 6, 11, 0.8);
  const auto a = hullOf(boatHull(6, 2.2f, 1.6f, 12, 4));
  const auto b = hullOf(box(btVector3(5, 1.5f, 2.5f), 2));
  std::unique_ptr<WaterFleet> fleet;
  std::vector<std::unique_ptr<WaterAction>> single;
  if (threads >= 0) fleet = std::make_unique<WaterFleet>(surface, threads);
  for (std::size_t i = 0; i < 24; ++i) {
    const auto& hull = i % 3 == 0 ? b : a;
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    btRigidBody* body = w.addBox(size, btScalar(0.45 * 1025 * hull->volume_m3()),
                                 btTransform(btQuaternion(btVector3(0, 1, 0), 0.3f * btScalar(i)),
                                             btVector3(btScalar(7 * (i % 6)), 0.3f, btScalar(4 * (i / 6)))));
    body->setAngularVelocity(btVector3(0.1f * btScalar(i % 4), 0, 0.2f));
    WaterAction* boat = nullptr;
    if (fleet) {
      boat = &fleet->add(body, hull);
    } else {
      single.push_back(std::make_unique<WaterAction>(body, hull, surface));
      boat = single.back().get();
      w.world.addAction(boat);
    }
    if (setup) setup(i, *boat, *body, *hull);
  }
  if (fleet) w.world.addAction(fleet.get());
  for (int i = 0; i < 600; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  FleetOutcome out;
  for (auto& body : w.bodies) {
    out.transforms.push_back(body->getCenterOfMassTransform());
    out.velocities.push_back(body->getLinearVelocity());
  }
  for (std::size_t i = 0; i < 24; ++i) {
    const WaterAction& boat = fleet ? fleet->boat(i) : *single[i];
    for (const CompartmentStatus& c : boat.flooding().compartments) out.floodwater_m3 += c.water_m3;
  }
  if (fleet) w.world.removeAction(fleet.get());
  for (auto& s : single) w.world.removeAction(s.get());
  return out;
}

bool bitwiseEqual(const FleetOutcome& x, const FleetOutcome& y) {
  if (x.transforms.size() != y.transforms.size()) return false;
  for (std::size_t i = 0; i < x.transforms.size(); ++i)
    if (std::memcmp(&x.transforms[i], &y.transforms[i], sizeof(btTransform)) != 0 ||
        std::memcmp(&x.velocities[i], &y.velocities[i], sizeof(btVector3)) != 0)
      return false;
  return true;
}

}  // namespace keel::test
