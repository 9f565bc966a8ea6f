// The substep's SIMD kernels give the same bits on every instruction set
// Highway compiled into the library (docs/model.md, "The SIMD path"): a
// 1,000-triangle boat with every hydrodynamic term, wave pressure and two
// flooding compartments, on direct and on patch sampling, and a boat on
// columns, stepped under each instruction set in turn (the next dispatch
// chooses the one hwy::SetSupportedTargetsForTest names), their final
// states compared bit for bit. The water is the test's own surface, scalar
// code outside the kernels, so only the kernels can make the bits differ
// (the library's wave surfaces have their own test:
// Determinism.FinalStateHashesToTheRecordedConstant). Skipped in a build
// with KEEL_CROSS_ISA_DETERMINISM off.
#include "test_hulls.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace keel::test {
namespace {

/// Two crossing linear waves, a current, and a pressure head whose dynamic
/// part decays with depth as e^{k z} (docs/waves.md, "Pressure below the
/// surface"), all computed here in double.
class CrossSea final : public WaterSurface {
 public:
  btScalar height(btScalar u_m, btScalar v_m, double t_s) const override { return btScalar(eta(u_m, v_m, t_s)); }
  WaterVelocity velocity(btScalar u_m, btScalar /*v_m*/, btScalar w_m, double t_s) const override {
    const double decay = std::exp(kK * std::min(double(w_m), 0.0));
    const double s = std::sin(kK * double(u_m) - kOmega * t_s);
    WaterVelocity out;
    out.east_mps = btScalar(0.3 + kA * kOmega * decay * std::cos(kK * double(u_m) - kOmega * t_s));
    out.north_mps = btScalar(0.1);
    out.up_mps = btScalar(kA * kOmega * decay * s);
    return out;
  }
  void pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                     btScalar* out_m) const override {
    for (std::size_t i = 0; i < count; ++i) {
      const double e = eta(u_m[i], v_m[i], t_s), w = double(w_m[i]);
      out_m[i] = btScalar(e * std::exp(kK * std::min(w - e, 0.0)) - w);
    }
  }

 private:
  static constexpr double kA = 0.4, kK = 0.2, kOmega = 1.4;  // [m], [1/m], [rad/s]: deep water, omega^2 = g k
  static double eta(double u, double v, double t) {
    return kA * std::sin(kK * u - kOmega * t) + 0.15 * std::cos(0.37 * v + 0.21 * u - 1.9 * t);
  }
};

/// Two compartments of the 8 x 2 x 3 m box, fore and aft of a bulkhead with
/// a door, the fore one holed below the waterline.
std::vector<Compartment> compartments() {
  std::vector<Compartment> out(2);
  for (int k = 0; k < 2; ++k) {
    out[std::size_t(k)].name = k == 0 ? "fore" : "aft";
    out[std::size_t(k)].space = hullOf(box(btVector3(3.8f, 1.6f, 2.6f), 1, btVector3(k == 0 ? 1.9f : -1.9f, 0, 0)));
  }
  out[0].openings.push_back({btVector3(3.5f, -0.6f, 0), btScalar(0.01)});
  Opening door{btVector3(0, -0.7f, 0), btScalar(0.04)};
  door.to = 1;
  out[0].openings.push_back(door);
  return out;
}

/// A boat's final state: transform and velocities, every bit.
void appendState(const btRigidBody& body, std::vector<btScalar>& out) {
  const btTransform& t = body.getCenterOfMassTransform();
  const btVector3 rows[6] = {t.getOrigin(),   t.getBasis()[0],          t.getBasis()[1],
                             t.getBasis()[2], body.getLinearVelocity(), body.getAngularVelocity()};
  for (const btVector3& r : rows) out.insert(out.end(), {r.x(), r.y(), r.z()});
}

/// The scenario under the instruction set the next dispatch chooses: the
/// boats' states and floodwater after 0.5 s at four substeps a frame.
std::vector<btScalar> runScenario() {
  World w;
  const auto sea = std::make_shared<CrossSea>();
  const auto hull = hullOf(box(btVector3(8, 2, 3), 9));  // 972 triangles
  std::vector<std::unique_ptr<WaterAction>> boats;
  for (int k = 0; k < 3; ++k) {
    const btTransform at(btQuaternion(btVector3(1, 0.2f, 0.3f).normalized(), 0.15f),
                         btVector3(btScalar(12 * k), btScalar(0.2), 0));
    btRigidBody* body = w.addBox(btVector3(8, 2, 3), btScalar(0.45 * 1025 * 48), at);
    body->setLinearVelocity(btVector3(1.5f, -0.4f, 0.3f));
    body->setAngularVelocity(btVector3(0.2f, 0.1f, -0.3f));
    auto boat = std::make_unique<WaterAction>(body, hull, sea);
    HydrostaticSettings statics;
    statics.pressure = PressureModel::WavePressure;
    statics.sampling = k == 1 ? Sampling::Patch : Sampling::Direct;
    boat->setSettings(statics);
    HydrodynamicSettings dynamics;
    dynamics.damping = true;
    boat->setHydrodynamics(dynamics);
    if (k < 2) boat->setCompartments(compartments());
    if (k == 2) setModel(*boat, BuoyancyModel::Columns);
    w.world.addAction(boat.get());
    boats.push_back(std::move(boat));
  }
  for (int i = 0; i < 30; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  std::vector<btScalar> out;
  for (const auto& body : w.bodies) appendState(*body, out);
  for (const auto& boat : boats) {
    for (const CompartmentStatus& c : boat->flooding().compartments) out.push_back(btScalar(c.water_m3));
    w.world.removeAction(boat.get());
  }
  return out;
}

/// The first value whose bits differ between a and b, or a.size().
std::size_t firstDifference(const std::vector<btScalar>& a, const std::vector<btScalar>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(btScalar)) != 0) return i;
  return a.size();
}

TEST(KernelDeterminism, EveryInstructionSetGivesTheSameBits) {
#if !KEEL_CROSS_ISA_DETERMINISM
  GTEST_SKIP() << "built with KEEL_CROSS_ISA_DETERMINISM off: each instruction set has its own bits";
#endif
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_GE(targets.size(), 2u) << "one instruction set compiled: nothing to compare";
  std::vector<btScalar> first;
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    const std::vector<btScalar> state = runScenario();
    ASSERT_GT(state[3 * 18], btScalar(0)) << "the fore compartment took no water";
    std::printf("[  target  ] %-8s first boat at (%.9g, %.9g, %.9g)\n", hwy::TargetName(target), double(state[0]),
                double(state[1]), double(state[2]));
    if (first.empty()) {
      first = state;
      continue;
    }
    ASSERT_EQ(state.size(), first.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < state.size(); ++i)
      differing += std::memcmp(&state[i], &first[i], sizeof(btScalar)) != 0;
    const std::size_t k = firstDifference(state, first);
    EXPECT_EQ(differing, 0u) << hwy::TargetName(target) << " differs from " << hwy::TargetName(targets.front())
                             << " in " << differing << " of " << state.size() << " values, first value " << k << ": "
                             << (k < state.size() ? double(state[k]) - double(first[k]) : 0.0) << " apart";
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace
}  // namespace keel::test
