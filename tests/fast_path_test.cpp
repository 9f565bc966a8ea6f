// The SIMD path inside WaterAction (lib/src/substep and its kernels) against
// the scalar reference pipeline of tests/support/reference.hpp, term by
// term, for hulls in random poses moving in random directions, on flat
// water and on waves. Both are exact formulas of the
// same model; they differ only in the order of the float sums.
#include "reference.hpp"
#include "substep/clamp.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace keel::test {
using namespace keel::reference;  // the scalar oracle
namespace {

/// Every term of one substep by the reference pipeline (what WaterAction
/// did before the fast path), before the drag clamp.
struct Reference {
  HydrostaticResult hydrostatics;
  HydrodynamicForces hydrodynamics;
  double scale[5] = {0, 0, 0, 0, 0};  // sum of |piece force| per term [N]
  btVector3 meanWater{0, 0, 0};       // area-weighted water velocity [m/s]
};

Reference reference(const Hull& hull, const btTransform& com, const btVector3& v, const btVector3& w,
                    const WaterSurface& surface, btScalar t, btScalar dt, btScalar mass, const HydrodynamicSettings& s,
                    SlammingState& slamming, const WaterPatch* patch = nullptr) {
  const WaterFrame frame;  // y up
  const std::size_t n = hull.vertices().size();
  std::vector<btVector3> r(n);
  std::vector<btScalar> u(n), vv(n), water(n), h(n);
  rotateVertices(com.getBasis(), hull.vertices(), r);
  if (patch)  // the heights the action's patch gave (sampled at the same time)
    reference::sampleFromPatch(*patch, frame, com.getOrigin(), r, water);
  else
    reference::sampleDirect(surface, frame, com.getOrigin(), r, t, u, vv, water);
  vertexHeights(r, com.getOrigin().y(), frame.up, water, h);
  CutBuffers cut;
  cut.reserve(hull.triangles().size());
  cutHull(r, h, hull, cut);
  Reference out;
  out.hydrostatics = integratePressure(cut.pieces, 1025, kG, frame.up);
  std::vector<btVector3> vertexWater(n, btVector3(0, 0, 0));
  for (std::size_t i = 0; i < n; ++i) {
    const btVector3 p = com.getOrigin() + r[i];
    // A patch that holds velocities (a sum of waves) gives the wet
    // vertices theirs, interpolated at the depth below its own surface.
    const WaterVelocity q = patch && patch->hasVelocities() ? patch->velocity(p.x(), p.z(), p.y(), water[i])
                                                            : surface.velocity(p.x(), p.z(), p.y(), t);
    vertexWater[i] = frame.toWorld(q);
  }
  std::vector<btVector3> pieceWater;
  for (const Piece& p : cut.pieces) pieceWater.push_back(centroidValue(p, vertexWater));
  std::vector<PieceFlow> flows(cut.pieces.size());
  pieceFlows(cut.pieces, v, w, pieceWater, flows);
  btVector3 meanWater(0, 0, 0);
  btScalar area = 0;
  for (std::size_t i = 0; i < flows.size(); ++i)
    meanWater += pieceWater[i] * flows[i].area_m2, area += flows[i].area_m2;
  if (area > 0) meanWater /= area;
  out.meanWater = meanWater;
  const btVector3 relative = v - meanWater;
  const btScalar speed = relative.length();
  const btScalar cf = ittc1957FrictionCoefficient(speed * wettedLength_m(cut.pieces, cut.waterline, relative / speed) /
                                                  s.kinematicViscosity_m2ps);
  HydrodynamicForces& f = out.hydrodynamics;
  f.viscous = viscousForce(flows, 1025, cf);
  f.pressureDrag = pressureDragForce(flows, s);
  std::vector<btScalar> scratch(hull.triangles().size());
  f.slamming = slammingForce(cut.pieces, flows, hull.triangleAreas_m2(), hull.area_m2(), mass, dt, s, scratch,
                             slamming);
  f.air = airForce(r, hull.triangles(), cut.emerged, v, w, s);
  for (const PieceFlow& flow : flows) {
    const std::span<const PieceFlow> one(&flow, 1);
    out.scale[0] += viscousForce(one, 1025, cf).force_N.length();
    out.scale[1] += pressureDragForce(one, s).force_N.length();
  }
  for (const EmergedTriangle& e : cut.emerged)
    out.scale[3] += airForce(r, hull.triangles(), std::span<const EmergedTriangle>(&e, 1), v, w, s).force_N.length();
  out.scale[2] = f.slamming.force_N.length();
  return out;
}

/// |a - b| <= tolerance * scale, component by component, with a message.
void expectClose(const btVector3& a, const btVector3& b, double scale, double tolerance, const std::string& what) {
  for (int k = 0; k < 3; ++k)
    EXPECT_LE(std::abs(double(a[k]) - double(b[k])), tolerance * scale)
        << what << " [" << k << "]: fast " << a[k] << ", reference " << b[k] << ", scale " << scale;
}

struct Case {
  const char* name;
  Mesh mesh;
  bool waves;
  bool patch = false;  // patch sampling: the water velocity asked only where the hull is wet
};

TEST(FastPath, EveryTermMatchesTheReferencePipeline) {
  const Case cases[] = {{"box 1k", box(btVector3(4, 1.5f, 2), 9), false},
                        {"boat hull", boatHull(10, 3.5f, 2.5f, 20, 6), false},
                        {"icosphere", icosphere(1.5f, 3), false},
                        {"box 1k, waves", box(btVector3(4, 1.5f, 2), 9), true},
                        {"boat hull, waves", boatHull(10, 3.5f, 2.5f, 20, 6), true},
                        {"box 1k, waves, patch", box(btVector3(4, 1.5f, 2), 9), true, true},
                        {"boat hull, waves, patch", boatHull(10, 3.5f, 2.5f, 20, 6), true, true}};
  const auto sea = std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
      deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
  const auto flat = std::make_shared<FlatSurface>();
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(-1, 1);
  // float sums of ~1,000 terms: a few 1e-6 of the sum of the terms' sizes.
  const double tolerance = sizeof(btScalar) == 4 ? 2e-5 : 1e-12;
  double worst = 0;
  for (const Case& c : cases) {
    const auto hull = hullOf(c.mesh);
    const WaterSurface& surface = c.waves ? static_cast<const WaterSurface&>(*sea) : *flat;
    for (int trial = 0; trial < 8; ++trial) {
      SCOPED_TRACE(std::string(c.name) + ", trial " + std::to_string(trial));
      World world;
      const btVector3 axis = btVector3(unit(random), unit(random), unit(random)).normalized();
      const btTransform pose(btQuaternion(axis, 0.6f * unit(random)), btVector3(0, 0.5f * unit(random), 0));
      const btVector3 v(2 * unit(random), unit(random), 2 * unit(random)), w(unit(random), unit(random), unit(random));
      const btScalar mass = btScalar(2e4), dt = btScalar(1.0 / 240);
      btRigidBody* body = world.addBox(hull->boundsMax() - hull->boundsMin(), mass, pose);
      body->setDamping(0, 0);
      HydrostaticSettings sampling;
      // The reference samples every vertex: so does the fast path unless
      // the case is the patch's (Auto would pick the patch on the waves).
      sampling.sampling = c.patch ? Sampling::Patch : Sampling::Direct;
      if (c.patch) sampling.patchCellSize_m = 0.5f;
      WaterAction action(body, hull, c.waves ? std::shared_ptr<const WaterSurface>(sea) : flat, sampling);
      HydrodynamicSettings s;
      s.wind_mps = btVector3(3, 0, -2);
      // Kerner's per-piece terms: the hull's lift, one formula per boat that
      // Turning.HullLiftIsJonesSlenderWingAtTheCentreOfBuoyancy checks, would
      // enter the clamp that the reference does without it.
      s.hullLift = false;
      action.setHydrodynamics(s);
      SlammingState slamming;
      slamming.reset(hull->triangles().size());
      // Two substeps, the second at another pose and velocity: slamming needs the first's swept rates.
      for (int sub = 0; sub < 2; ++sub) {
        const btTransform at(pose.getRotation() * btQuaternion(axis, 0.05f * btScalar(sub)),
                             pose.getOrigin() - btVector3(0, 0.05f * btScalar(sub), 0));
        const btVector3 velocity = v - btVector3(0, btScalar(sub), 0);
        body->setCenterOfMassTransform(at);
        body->setLinearVelocity(velocity);
        body->setAngularVelocity(w);
        action.updateAction(&world.world, dt);
        Reference ref = reference(*hull, at, velocity, w, surface, btScalar(action.time_s()), dt, mass, s, slamming,
                                  c.patch ? &action.waterPatch() : nullptr);
        // The same drag clamp (slamming stops a piece in one substep, so it often acts).
        detail::clampToVelocity(ref.hydrodynamics, velocity - ref.meanWater, w, body->getInvMass(),
                                body->getInvInertiaTensorWorld(), dt);
        EXPECT_NEAR(action.hydrodynamics().clampScale, ref.hydrodynamics.clampScale, tolerance);
        EXPECT_NEAR(action.hydrodynamics().angularClampScale, ref.hydrodynamics.angularClampScale, tolerance);
        const HydrostaticResult& fast = action.hydrostatics();
        const double buoyancy = 1025 * kG * hull->volume_m3(), length = hull->radius_m();
        expectClose(fast.force_N, ref.hydrostatics.force_N, buoyancy, tolerance, "pressure force");
        expectClose(fast.torque_Nm, ref.hydrostatics.torque_Nm, buoyancy * length, tolerance, "pressure torque");
        EXPECT_NEAR(fast.submergedVolume_m3, ref.hydrostatics.submergedVolume_m3, tolerance * hull->volume_m3());
        EXPECT_NEAR(fast.wettedArea_m2, ref.hydrostatics.wettedArea_m2, tolerance * hull->area_m2());
        EXPECT_NEAR(fast.depthIntegral_m4, ref.hydrostatics.depthIntegral_m4, tolerance * hull->volume_m3() * length);
        if (ref.hydrostatics.submergedVolume_m3 > 0.01 * hull->volume_m3())
          expectClose(fast.centreOfBuoyancy_m, ref.hydrostatics.centreOfBuoyancy_m, length,
                      tolerance * hull->volume_m3() / ref.hydrostatics.submergedVolume_m3, "centre of buoyancy");
        const ForceTorque* terms[4] = {&action.hydrodynamics().viscous, &action.hydrodynamics().pressureDrag,
                                       &action.hydrodynamics().slamming, &action.hydrodynamics().air};
        const ForceTorque* refs[4] = {&ref.hydrodynamics.viscous, &ref.hydrodynamics.pressureDrag,
                                      &ref.hydrodynamics.slamming, &ref.hydrodynamics.air};
        const char* names[4] = {"viscous", "pressure drag", "slamming", "air"};
        for (int k = 0; k < 4; ++k) {
          const double scale = ref.scale[k] + 1e-3;
          expectClose(terms[k]->force_N, refs[k]->force_N, scale, tolerance, std::string(names[k]) + " force");
          expectClose(terms[k]->torque_Nm, refs[k]->torque_Nm, scale * length, tolerance,
                      std::string(names[k]) + " torque");
          worst = std::max(worst, double((terms[k]->force_N - refs[k]->force_N).length()) / scale);
        }
        worst = std::max(worst, double((fast.force_N - ref.hydrostatics.force_N).length()) / buoyancy);
      }
    }
  }
  reportFigure("fast path vs reference: worst force difference / sum of the terms' sizes", worst, 0);
}

TEST(FastPath, PatchHeightsAreWaterPatchHeights) {
  // The vectorised patch interpolation against WaterPatch::height at every
  // vertex, through the whole hydrostatic result.
  const auto sea = std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
      deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
  std::mt19937 random(11);
  std::uniform_real_distribution<float> unit(-1, 1);
  const double tolerance = sizeof(btScalar) == 4 ? 2e-5 : 1e-12;
  for (int trial = 0; trial < 10; ++trial) {
    World world;
    const btVector3 axis = btVector3(unit(random), unit(random), unit(random)).normalized();
    // Far from the origin too: the patch's coordinates are doubles.
    const btTransform pose(btQuaternion(axis, 0.5f * unit(random)),
                           btVector3(1e4f * unit(random), 0.4f * unit(random), 1e4f * unit(random)));
    btRigidBody* body = world.addBox(hull->boundsMax() - hull->boundsMin(), 2e4f, pose);
    HydrostaticSettings settings;
    settings.sampling = Sampling::Patch;
    settings.patchCellSize_m = 0.7f;
    WaterAction action(body, hull, sea, settings);
    action.setHydrodynamics(HydrodynamicSettings::none());
    action.updateAction(&world.world, btScalar(1.0 / 240));
    SlammingState slamming;
    slamming.reset(hull->triangles().size());
    const Reference ref = reference(*hull, pose, btVector3(0, 0, 0), btVector3(0, 0, 0), *sea,
                                    btScalar(action.time_s()), btScalar(1.0 / 240), 2e4f, HydrodynamicSettings::none(),
                                    slamming, &action.waterPatch());
    const double buoyancy = 1025 * kG * hull->volume_m3();
    expectClose(action.hydrostatics().force_N, ref.hydrostatics.force_N, buoyancy, tolerance, "pressure force");
    expectClose(action.hydrostatics().torque_Nm, ref.hydrostatics.torque_Nm, buoyancy * hull->radius_m(), tolerance,
                "pressure torque");
    EXPECT_GT(ref.hydrostatics.submergedVolume_m3, 0);
  }
}

}  // namespace
}  // namespace keel::test
