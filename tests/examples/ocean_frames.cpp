#include "ocean_frames.hpp"

namespace game {

void startOcean(keel::HeightGridSurface& ocean, const OceanSource& source, double t_s) {
  source(t_s, ocean.backBuffer_m());
  ocean.publish(t_s);
}

void stepFrame(btDynamicsWorld& world, const keel::WaterFleet& fleet, keel::HeightGridSurface& ocean,
               const OceanSource& source, double frame_s, int substeps) {
  // This step's substeps ask the ocean for the times T + k dt, k = 1 ..
  // substeps, T the clock now: the snapshot of its end time makes each of
  // them interpolate between it and the last frame's.
  const double end_s = fleet.time_s() + frame_s;
  source(end_s, ocean.backBuffer_m());  // queries never read the back buffer
  ocean.publish(end_s);                 // between steps: the fleet's threads query the ocean during one
  world.stepSimulation(btScalar(frame_s), substeps, btScalar(frame_s / substeps));
}

}  // namespace game
