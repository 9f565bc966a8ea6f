// The determinism tests' scenes (determinism_scene.hpp).
#include "determinism_scene.hpp"

#include <stdexcept>

namespace keel::test {
namespace {

/// The height grid's layout: 40 x 28 nodes a metre apart, around the boats.
constexpr HeightGridLayout kGridLayout{-16, -12, 1, 40, 28, GridEdges::Clamp};

/// A smooth bump rising and falling in time, from + - * / alone, so that its
/// bits are the same wherever it is computed: heights [m] at (u, v) [m], time t [s].
btScalar bump(btScalar u, btScalar v, btScalar t) {
  const btScalar x = u - 2, y = v + 1;
  return btScalar(0.6) * x * y / (btScalar(30) + x * x + y * y) * (btScalar(1) + t * (btScalar(1) - t)) +
         btScalar(0.02) * u - btScalar(0.015) * v;
}

std::shared_ptr<const WaterSurface> sineSea() {
  SeaStateSettings s;
  s.componentCount = 8;
  s.seed = 3;
  s.gravity_mps2 = kG;
  return std::make_shared<SineSumSurface>(sampleSeaState(WaveSpectrum::jonswap(1.5, 6.0), s),
                                          WaveFieldSettings{.meanLevel_m = 0.05});
}

}  // namespace

SceneSea::SceneSea(int which) {
  switch (which) {
    case 0: surface_ = std::make_shared<FlatSurface>(0.1, UniformCurrent{0.6, -0.3}); break;
    case 1: surface_ = std::make_shared<TiltedPlaneSurface>(0, 0.02, -0.01, UniformCurrent{0.2, 0.1}); break;
    case 2:
      surface_ = std::make_shared<FunctionSurface>(
          [](btScalar u, btScalar v, double t) { return bump(u, v, btScalar(t)); });
      break;
    case 3: surface_ = sineSea(); break;
    case 4: surface_ = gerstnerSea(2.0, 7.0, 6, 7, 0.8); break;
    case 5:
    case 6: {
      SpectralOceanSettings s{.nodesPerSide = 32, .seed = 5, .gravity_mps2 = kG};
      if (which == 6) s.interpolation = SpectralInterpolation::Bilinear, s.query = SpectralQuery::ParticleSolve;
      surface_ = ocean_ = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0), s);
      break;
    }
    case 7: surface_ = grid_ = std::make_shared<HeightGridSurface>(kGridLayout); break;
    default: throw std::invalid_argument("SceneSea: no sea " + std::to_string(which));
  }
}

void SceneSea::advance(double from_s, double to_s) {
  if (ocean_) ocean_->update(from_s, to_s);
  if (grid_) {
    const std::span<btScalar> h = grid_->backBuffer_m();
    for (int j = 0; j < kGridLayout.nodesNorth; ++j)
      for (int i = 0; i < kGridLayout.nodesEast; ++i)
        h[std::size_t(j * kGridLayout.nodesEast + i)] = bump(btScalar(kGridLayout.originEast_m + i),
                                                             btScalar(kGridLayout.originNorth_m + j), btScalar(to_s));
    grid_->publish(to_s);
  }
}

SceneBoats::SceneBoats(World& world, const std::shared_ptr<const WaterSurface>& surface)
    : fleet(std::make_unique<WaterFleet>(surface, 2)) {
  const auto barge = hullOf(box(btVector3(5, btScalar(1.5), btScalar(2.5)), 2));
  const auto boat = hullOf(boatHull(6, btScalar(2.2), btScalar(1.6), 12, 4));
  const auto buoy = hullOf(icosphere(btScalar(0.8), 2));
  // Turned about up by 2 atan(turn): a quaternion that Bullet normalises
  // with + - * / alone (btMatrix3x3::setRotation), where an angle would
  // take glibc's sinf and cosf, whose bits vary (docs/determinism.md).
  const auto add = [&](const std::shared_ptr<const Hull>& hull, double massFraction, btScalar turn,
                       const btVector3& at) {
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    bodies.push_back(world.addBox(size, btScalar(massFraction * 1025 * hull->volume_m3()),
                                  btTransform(btQuaternion(0, turn, 0, 1), at)));
    return bodies.back();
  };
  HydrostaticSettings patch;
  patch.sampling = Sampling::Patch;
  patch.pressure = PressureModel::WavePressure;
  WaterAction& flooded = fleet->add(add(barge, 0.5, btScalar(0.05), btVector3(0, 0, 0)), barge, patch);
  const auto room = hullOf(box(btVector3(2, 1, btScalar(1.6)), 1));
  flooded.setCompartments({Compartment{"room", room, {Opening{btVector3(0, btScalar(-0.45), 0), btScalar(0.05)}}}});
  fleet->add(add(boat, 0.45, btScalar(0.2), btVector3(9, btScalar(0.2), 0)), boat)
      .setLevelOfDetail(farBoatSettings(*boat));
  HydrostaticSettings direct;
  direct.sampling = Sampling::Direct;
  WaterAction& buoyed = fleet->add(add(buoy, 0.5, 0, btVector3(btScalar(0.5), btScalar(0.1), btScalar(2.4))), buoy,
                                   direct);
  bodies.back()->setLinearVelocity(btVector3(0, 0, btScalar(-1.5)));
  HydrodynamicSettings carried;  // the buoy carries its water: the added mass's solve, and the mass it puts on the body
  carried.addedMass = true;
  buoyed.setHydrodynamics(carried);
  patch.pressure = PressureModel::StaticHead;
  single = std::make_unique<WaterAction>(add(boat, 0.45, btScalar(-0.15), btVector3(-9, btScalar(0.2), 1)), boat,
                                         surface, patch);
  HydrodynamicSettings hydro;
  hydro.waterVelocity = WaterVelocitySampling::PerBoat;
  hydro.wind_mps = btVector3(3, 0, 1);
  hydro.damping = true;
  hydro.linearDamping_Nspm = 2000;
  hydro.angularDamping_Nmsprad = 500;
  single->setHydrodynamics(hydro);
}

void SceneBoats::beforeFrame(int frame) {
  if (frame != kSceneFrames / 2) return;
  LevelOfDetail near = fullDetailSettings();
  near.sampling = Sampling::Patch;
  fleet->boat(1).setLevelOfDetail(near);
  single->setLevelOfDetail(farBoatSettings(*single->hull()));
}

void SceneBoats::hashKeelOutput(Fnv1a& h) const {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const WaterAction& b = boat(i);
    h.add(b.totalForce().force_N);
    h.add(b.totalForce().torque_Nm);
    h.add(b.pendingLinearVelocity_mps());
    h.add(b.pendingAngularVelocity_radps());
    h.add(b.draft_m());
    h.add(b.status().flags);
    for (const CompartmentStatus& c : b.flooding().compartments) h.add(c.water_m3), h.add(c.inflow_m3ps);
  }
}

}  // namespace keel::test
