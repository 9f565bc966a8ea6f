// A fixed amount of per-boat substep work for instruction counting, which is
// repeatable on a noisy machine where wall time is not:
//   valgrind --tool=callgrind --callgrind-out-file=cg.out
//     build/tests/keel_profile_substep 1000 flat direct full 200
// (water: flat, wavy (3 sines) or spectral (the benchmarks' JONSWAP
// SpectralOcean, Hs 2 m); sampling: direct, patch (0.5 m cells), patch1
// (1 m cells), auto (the default settings) or field (the default settings
// on a WakeField over the water that the boat makes waves in, its clock
// cycling as keel_bench_wake's boatSubstep's); TRIANGLES "boat": that
// benchmark's 462-triangle boat instead of a box; full: the default
// hydrodynamics for auto and field)
//   callgrind_annotate cg.out | head
// Prints the triangle and substep counts to divide the total by.
#include "test_hulls.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  using namespace keel;
  using namespace keel::test;
  if (argc != 6) {
    std::fprintf(
        stderr,
        "usage: %s TRIANGLES|boat flat|wavy|spectral direct|patch|patch1|auto|field hydrostatic|full SUBSTEPS\n",
        argv[0]);
    return 2;
  }
  const bool boatShape = std::strcmp(argv[1], "boat") == 0;
  const int triangles = boatShape ? 462 : std::atoi(argv[1]), substeps = std::atoi(argv[5]);
  const bool wavy = std::strcmp(argv[2], "wavy") == 0, spectral = std::strcmp(argv[2], "spectral") == 0,
             patch1 = std::strcmp(argv[3], "patch1") == 0, patch = patch1 || std::strcmp(argv[3], "patch") == 0,
             onField = std::strcmp(argv[3], "field") == 0, automatic = onField || std::strcmp(argv[3], "auto") == 0,
             full = std::strcmp(argv[4], "full") == 0;
  if (triangles < 12 || substeps < 1) {
    std::fprintf(stderr, "TRIANGLES must be >= 12 and SUBSTEPS >= 1\n");
    return 2;
  }
  World w;
  const int n = std::max(1, int(std::lround(std::sqrt(triangles / 12.0))));
  const auto hull = hullOf(boatShape ? boatHull(4, 1.5f, 1, 20, 6) : box(btVector3(4, 1.5f, 2), n));
  btRigidBody* body = w.addBox(
      btVector3(4, 1.5f, 2), 6000,
      btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0)));
  HydrostaticSettings settings;
  // Each substep at a time of its own (auto jumps the clock, as the
  // benchmarks' substep does): sampled at that time, not blended between
  // the lattice times around it (HydrostaticSettings::patchSubstepsPerSample).
  settings.patchSubstepsPerSample = 1;
  if (!automatic) {
    settings.sampling = patch ? Sampling::Patch : Sampling::Direct;
    settings.patchCellSize_m = patch1 ? 1.0f : 0.5f;  // 0.5: an eighth of the shortest wave (4 m)
  }
  std::shared_ptr<const WaterSurface> surface =
      spectral ? std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0))
      : wavy
          ? std::shared_ptr<const WaterSurface>(std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
                deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)}))
          : std::make_shared<FlatSurface>();
  const auto field = onField ? std::make_shared<WakeField>(surface) : nullptr;
  WaterAction boat(body, hull, onField ? std::shared_ptr<const WaterSurface>(field) : surface, settings);
  if (!automatic || !full) {
    HydrodynamicSettings hydro = full ? HydrodynamicSettings{} : HydrodynamicSettings::none();
    hydro.damping = full;
    boat.setHydrodynamics(hydro);
  }
  const btTransform start = body->getCenterOfMassTransform();
  const auto substep = [&](int i) {
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
    if (automatic) boat.setTime(5.0 + 0.37 * double(i % 16));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
  };
  if (onField) {  // as the benchmark: the field holds a few substeps' waves
    field->add(boat);
    for (int i = 0; i < 8; ++i) {
      substep(i);
      field->update(double(i) / 60, double(i + 1) / 60);
    }
    field->update(5.0, 5.0 + 0.37 * 16);
  }
  for (int i = 0; i < substeps; ++i) substep(i);
  std::printf("triangles %zu pieces %zu substeps %d\n", hull->triangles().size(), boat.submergedPieces().size(),
              substeps);
}
