// No heap allocation per substep once a boat is warm:
// this executable replaces the global operator new with a counting one.
#include "added_mass/added_mass.hpp"
#include "test_hulls.hpp"

#include <keel/propulsion.hpp>
#include <keel/spectral_ocean.hpp>
#include <keel/water_fleet.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace {
std::atomic<long> gAllocations{0};
std::atomic<long> gBytes{0};  // requested by every allocation so far
}  // namespace

// Every replaceable form is replaced, so that each allocation is counted and
// every delete frees what its new allocated (a form left out keeps the
// runtime's, which AddressSanitizer reports as alloc-dealloc-mismatch when our
// delete frees it: std::stable_sort allocates with the nothrow form).
// GCC inlines a delete below into a caller whose new-expression it sees
// only as a call to operator new (not inlined at -O1), and then warns that
// free() releases what operator new returned: here it is what malloc did.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {
void* countedAlloc(std::size_t size) noexcept {
  ++gAllocations;
  gBytes += long(size);
  return std::malloc(size ? size : 1);
}
void* countedAlignedAlloc(std::size_t size, std::align_val_t align) noexcept {
  ++gAllocations;
  gBytes += long(size);
  const auto a = static_cast<std::size_t>(align);
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(a, size == 0 ? a : (size + a - 1) / a * a);
}
void* orThrow(void* p) {
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t size) { return orThrow(countedAlloc(size)); }
void* operator new[](std::size_t size) { return orThrow(countedAlloc(size)); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return countedAlloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return countedAlloc(size); }
void* operator new(std::size_t size, std::align_val_t align) { return orThrow(countedAlignedAlloc(size, align)); }
void* operator new[](std::size_t size, std::align_val_t align) { return orThrow(countedAlignedAlloc(size, align)); }
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return countedAlignedAlloc(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return countedAlignedAlloc(size, align);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace keel::test {
namespace {

long allocationsDuring(WaterAction& boat, btDiscreteDynamicsWorld& world, int substeps) {
  const long before = gAllocations.load();
  for (int i = 0; i < substeps; ++i) boat.updateAction(&world, btScalar(1.0 / 240));
  return gAllocations.load() - before;
}

TEST(Allocation, CountingAllocatorSeesAllocations) {
  // The counter must be live, or the zero below proves nothing. (A
  // new-expression may be elided by the compiler; a std::vector's is not.)
  const long before = gAllocations.load();
  std::vector<double> v(1000, 1.0);
  EXPECT_EQ(v.size(), 1000u);
  EXPECT_EQ(gAllocations.load() - before, 1);
}

TEST(Allocation, NoHeapAllocationPerSubstepOnceWarm) {
  // The user's function (static heads) and, for the wave pressure, a sum of
  // sines whose batch pressure query runs too.
  const auto function = std::make_shared<FunctionSurface>(
      [](btScalar x, btScalar z, double t) { return btScalar(0.3 * std::sin(0.4 * x + t) + 0.1 * std::cos(0.3 * z)); });
  const auto sines = std::make_shared<SineSumSurface>(
      std::vector<WaveComponent>{deepWaterWave(0.3, 15, 0), deepWaterWave(0.1, 21, 1.5)});
  for (Sampling sampling : {Sampling::Direct, Sampling::Patch})
    for (PressureModel pressure : {PressureModel::StaticHead, PressureModel::WavePressure}) {
      SCOPED_TRACE(sampling == Sampling::Patch ? "patch" : "direct");
      World w;
      const auto hull = hullOf(boatHull(10, 3, 2));
      btRigidBody* body = w.addBox(btVector3(10, 2, 3), 8000,
                                   btTransform(btQuaternion(btVector3(1, 0, 0), 0.2f), btVector3(0, 0.1f, 0)));
      HydrostaticSettings settings;
      settings.sampling = sampling;
      settings.pressure = pressure;
      const std::shared_ptr<const WaterSurface> surface = pressure == PressureModel::StaticHead
                                                              ? std::shared_ptr<const WaterSurface>(function)
                                                              : std::shared_ptr<const WaterSurface>(sines);
      WaterAction boat(body, hull, surface, settings);
      // The added mass too (the wave pressure's runs): its stage, its solve
      // and the mass it puts on the body.
      HydrodynamicSettings dynamics;
      dynamics.addedMass = pressure == PressureModel::WavePressure;
      boat.setHydrodynamics(dynamics);
      allocationsDuring(boat, w.world, 2);  // warm-up
      EXPECT_EQ(allocationsDuring(boat, w.world, 500), 0)
          << "sampling " << int(sampling) << ", pressure " << int(pressure);
      EXPECT_GT(boat.submergedPieces().size(), 0u);
      // The whole Bullet step with the action: no allocation from Keel either.
      w.world.addAction(&boat);
      for (int i = 0; i < 10; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
      const long before = gAllocations.load();
      for (int i = 0; i < 200; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
      EXPECT_EQ(gAllocations.load() - before, 0);
      w.world.removeAction(&boat);
    }
}

// The added-mass model runs each substep when it is on: no allocation
// floating, under the surface, deep or dry, with or without the whole
// hull's moments kept.
TEST(Allocation, NoHeapAllocationInTheAddedMassModel) {
  const auto hull = hullOf(boatHull(10, 3, 2));
  const Moments whole = volumeMoments(*hull);
  const btVector3 up = btVector3(btScalar(0.1), 1, btScalar(0.2)).normalized();
  double sum = 0;
  const long before = gAllocations.load();
  for (const double h : {-5.0, 0.0, 0.5, 1.5, 3.0, 100.0})
    for (const Moments* kept : {static_cast<const Moments*>(nullptr), &whole})
      sum += detail::addedMassBelowPlane(*hull, up, h, 1025, kept)(1, 1);
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_GT(sum, 0);
}

// The spectral ocean's queries allocate nothing, nor does update() once
// warm: it reuses its tiles and FFT buffers (TBB's tasks come from TBB's own
// allocator, not operator new).
TEST(Allocation, NoHeapAllocationPerSubstepOnASpectralOcean) {
  World w;
  const auto hull = hullOf(boatHull(10, 3, 2));
  btRigidBody* body = w.addBox(btVector3(10, 2, 3), 8000, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  auto ocean = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1.0, 5.0),
                                               SpectralOceanSettings{.nodesPerSide = 32});
  ocean->update(0.0, 1.0);
  WaterAction boat(body, hull, ocean);
  allocationsDuring(boat, w.world, 2);  // warm-up
  EXPECT_EQ(allocationsDuring(boat, w.world, 200), 0);
  EXPECT_GT(boat.submergedPieces().size(), 0u);
  ocean->update(1.0, 2.0);
  const long before = gAllocations.load();
  ocean->update(2.0, 3.0);
  EXPECT_EQ(gAllocations.load() - before, 0);
  // Steady play at 60 Hz: each frame a slice of the next lattice tile (the
  // synthesis's stages, vectors of fixed-point rows), its levels made once.
  double t_s = 3.0;
  for (int frame = 0; frame < 60; ++frame, t_s += 1.0 / 60) ocean->update(t_s, t_s + 1.0 / 60);
  const long steady = gAllocations.load();
  for (int frame = 0; frame < 120; ++frame, t_s += 1.0 / 60) ocean->update(t_s, t_s + 1.0 / 60);
  EXPECT_EQ(gAllocations.load() - steady, 0);
}

// The wake field's update reuses its spectra, tiles and FFT buffers, and a
// boat's substep on it reuses the buffer of its sources: nothing allocated
// per frame once warm, the boat moving (making waves) and feeling them.
TEST(Allocation, NoHeapAllocationPerFrameOnAWakeField) {
  World w;
  const auto hull = hullOf(boatHull(10, 3, 2));
  btRigidBody* body = w.addBox(btVector3(10, 2, 3), 8000, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  body->setLinearVelocity(btVector3(4, 0, 1));
  auto field = std::make_shared<WakeField>(std::make_shared<LevelWater>(),
                                           WakeFieldSettings{.size_m = 64, .cellSize_m = 0.5});
  HydrostaticSettings settings;
  settings.pressure = PressureModel::WavePressure;
  WaterAction boat(body, hull, field, settings);
  field->add(boat);
  w.world.addAction(&boat);
  double t = 0;
  const double dt = 1.0 / 60;
  const auto frames = [&](int n) {
    for (int i = 0; i < n; ++i, t += dt) {
      field->update(t, t + dt);
      w.world.stepSimulation(btScalar(dt), 2, btScalar(dt / 2));
    }
  };
  frames(10);  // warm-up
  const long before = gAllocations.load();
  frames(60);
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_GT(field->energy_J(), 0);
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  w.world.removeAction(&boat);
}

TEST(Allocation, NoHeapAllocationOnColumnsNorWhenSwitchingModels) {
  for (Sampling sampling : {Sampling::Direct, Sampling::Patch}) {
    World w;
    const auto hull = hullOf(boatHull(10, 3, 2));
    btRigidBody* body = w.addBox(btVector3(10, 2, 3), 8000,
                                 btTransform(btQuaternion(btVector3(1, 0, 0), 0.2f), btVector3(0, 0.1f, 0)));
    HydrostaticSettings settings;
    settings.sampling = sampling;
    WaterAction boat(
        body, hull, [](btScalar x, btScalar, double t) { return btScalar(0.3 * std::sin(0.4 * x + t)); }, settings);
    HydrodynamicSettings damping = HydrodynamicSettings::none();
    damping.damping = true;
    damping.linearDamping_Nspm = 1000, damping.angularDamping_Nmsprad = 1000;
    boat.setHydrodynamics(damping);
    setModel(boat, BuoyancyModel::Columns);  // builds the columns: allocates, once
    allocationsDuring(boat, w.world, 2);     // warm-up
    EXPECT_EQ(allocationsDuring(boat, w.world, 500), 0) << "sampling " << int(sampling);
    EXPECT_GT(boat.hydrostatics().submergedVolume_m3, 0);
    // Back and forth, each model warm: nothing more.
    setModel(boat, BuoyancyModel::Triangles);
    allocationsDuring(boat, w.world, 2);
    const long before = gAllocations.load();
    for (int round = 0; round < 10; ++round) {
      setModel(boat, round % 2 == 0 ? BuoyancyModel::Columns : BuoyancyModel::Triangles);
      allocationsDuring(boat, w.world, 20);
    }
    EXPECT_EQ(gAllocations.load() - before, 0) << "sampling " << int(sampling);
  }
}

// Effect events (docs/effects.md): off by default the boat holds no buffer
// (switching on allocates it, once); on and warm, no substep allocates,
// whether the events fit or overflow, nor does reading or clearing them.
TEST(Allocation, NoHeapAllocationReportingEffects) {
  World w;
  const auto hull = hullOf(boatHull(10, 3, 2));
  btRigidBody* body = w.addBox(btVector3(10, 2, 3), 8000,
                               btTransform(btQuaternion(btVector3(1, 0, 0), 0.2f), btVector3(0, 0.1f, 0)));
  body->setLinearVelocity(btVector3(6, -2, 0));  // bow wave and spray at the bow
  WaterAction boat(body, hull, [](btScalar x, btScalar, double t) { return btScalar(0.3 * std::sin(0.4 * x + t)); });
  Compartment hold{"hold", hullOf(box(btVector3(2, 1, 1), 1, btVector3(-2, -0.3f, 0))), {}, 0, 0, 1};
  hold.openings.push_back(Opening{btVector3(-2, -0.7f, 0), btScalar(0.01)});
  boat.setCompartments({hold});
  allocationsDuring(boat, w.world, 2);
  EXPECT_TRUE(boat.effects().empty());
  EffectSettings effects;
  effects.enabled = true;
  effects.capacity = 64;
  const long switching = gAllocations.load();
  boat.setEffects(effects);
  EXPECT_GT(gAllocations.load() - switching, 0);  // the buffer
  allocationsDuring(boat, w.world, 2);            // warm-up
  const long before = gAllocations.load();
  std::size_t reported = 0;
  for (int round = 0; round < 50; ++round) {
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    reported += boat.effects().size();
    if (round % 10 == 0) boat.clearEffects();  // and overflowing in between
  }
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_GT(reported, 0u);
  EXPECT_GT(boat.droppedEffects() + boat.effects().size(), 0u);
}

/// A boat put on the far-boat preset before its first substep never holds
/// the triangle model's per-vertex arrays nor Auto's patch (a fleet of
/// thousands keeps its bodies close together in memory): it allocates less
/// than half what the same boat does on triangles, with the same settings.
TEST(Allocation, AFarBoatHoldsNoTrianglesArrays) {
  World w;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));  // 484 triangles, as the fleet benchmark's
  const auto sea = gerstnerSea(1.5, 6.0, 6, 5, 0.7);
  // Shared by every far boat of the hull: built once, outside the count.
  const auto columns = defaultColumnHull(hull, kFarBoatColumnCells);
  const auto bytesOf = [&](bool far) {
    btRigidBody* body = w.addBox(btVector3(10, 2.5f, 3.5f), 8000, btTransform::getIdentity());
    const long before = gBytes.load();
    WaterAction boat(body, hull, sea);
    boat.setLevelOfDetail(farBoatSettings(*hull));
    if (!far) setModel(boat, BuoyancyModel::Triangles);
    allocationsDuring(boat, w.world, 3);
    return gBytes.load() - before;
  };
  (void)bytesOf(false);  // the threads' working buffers, sized once for the hull
  const long far = bytesOf(true), triangles = bytesOf(false);
  std::printf("[  figure  ] bytes a boat allocates: far %ld, on triangles %ld\n", far, triangles);
  EXPECT_LT(2 * far, triangles);
}

TEST(Allocation, ARefinementOverTheVertexLimitIsRefusedBeforeItsVertices) {
  // A 1e6 m box refined to 1000 m edges would have over 6 million vertices,
  // 72 MB of coordinates alone: the hull counts them first and refuses,
  // having allocated about what the 12-triangle box itself takes.
  const Mesh m = box(btVector3(1e6f, 1e6f, 1e6f));
  const long before = gBytes.load();
  EXPECT_THROW(Hull(m.vertices, m.triangles, HullOptions{btScalar(1e-6), btScalar(1000)}), HullError);
  const long bytes = gBytes.load() - before;
  std::printf("[  figure  ] bytes allocated refusing the refinement: %ld\n", bytes);
  EXPECT_LT(bytes, 16 * 1024);
}

/// Rollback's ring buffer (docs/determinism.md, "Rollback"): saving into a
/// slot used before and restoring into the same boat or fleet allocate
/// nothing; a new state allocates its copy of the boat's memory, printed
/// per boat.
TEST(Allocation, NoHeapAllocationSavingIntoAUsedSlotOrRestoring) {
  World w;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
  WaterFleet fleet(gerstnerSea(1.5, 6.0, 6, 5, 0.7), 1);
  const char* names[] = {"full detail on a patch", "far boat on columns", "holed, on a patch"};
  for (int i = 0; i < 3; ++i) {
    const btTransform at(btQuaternion::getIdentity(), btVector3(btScalar(30 * i), 0, 0));
    WaterAction& boat = fleet.add(w.addBox(btVector3(10, 2.5f, 3.5f), 30000, at), hull, {.sampling = Sampling::Patch});
    if (i == 1) boat.setLevelOfDetail(farBoatSettings(*hull));
    if (i == 2) (void)boat.openHole(at.getOrigin() - btVector3(0, 1, 0), 0.05f);
  }
  w.world.addAction(&fleet);
  for (int k = 0; k < 3; ++k) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  for (std::size_t i = 0; i < fleet.size(); ++i) {
    const long before = gBytes.load();
    const WaterActionState state = fleet.boat(i).saveState();
    std::printf("[  figure  ] bytes a boat's saved state holds, %s: %ld\n", names[i], gBytes.load() - before);
  }
  WaterFleetState slot = fleet.saveState();
  WaterActionState boatSlot = fleet.boat(0).saveState();
  for (int k = 0; k < 20; ++k) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const long before = gAllocations.load();
  fleet.saveState(slot);
  fleet.restoreState(slot);
  fleet.boat(0).saveState(boatSlot);
  fleet.boat(0).restoreState(boatSlot);
  w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_EQ(gAllocations.load() - before, 0);
  w.world.removeAction(&fleet);
}

/// A fleet keeps its boats in blocks of many (WaterFleet::add): a game that
/// makes each body just before its boat, and puts the boat on the far-boat
/// preset there, allocates nothing between two bodies for most boats, so
/// its bodies lie as close together as when made first (docs/performance.md,
/// "Many boats"). A removed boat's slot goes to the next boat added.
TEST(Allocation, AFleetMakesItsBoatsInBlocks) {
  World w;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
  // Shared by every far boat of the hull: built once, outside the count.
  const auto columns = defaultColumnHull(hull, kFarBoatColumnCells);
  WaterFleet fleet(gerstnerSea(1.5, 6.0, 6, 5, 0.7), 1);
  const int boats = 640;
  long inLoop = 0;  // allocations between making one body and the next
  for (int i = 0; i < boats; ++i) {
    btRigidBody* body = w.addBox(btVector3(10, 2.5f, 3.5f), 30000,
                                 btTransform(btQuaternion::getIdentity(), btVector3(btScalar(20 * i), 0, 0)));
    const long before = gAllocations.load();
    fleet.add(body, hull).setLevelOfDetail(farBoatSettings(*hull));
    inLoop += gAllocations.load() - before;
  }
  std::printf("[  figure  ] allocations a far boat makes in a fleet, in the loop that makes the bodies: %.3f\n",
              double(inLoop) / boats);
  EXPECT_LT(8 * inLoop, boats);  // blocks of 64 boats and more, the fleet's lists doubling (seven a boat before)
  w.world.addAction(&fleet);
  for (int k = 0; k < 3; ++k) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  btRigidBody* body = fleet.boat(5).body();
  const long before = gAllocations.load();
  ASSERT_TRUE(fleet.remove(body));
  fleet.add(body, hull).setLevelOfDetail(farBoatSettings(*hull));
  EXPECT_EQ(gAllocations.load() - before, 0);
  w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  ASSERT_EQ(fleet.size(), std::size_t(boats));
  EXPECT_EQ(fleet.boat(std::size_t(boats - 1)).body(), body);
  EXPECT_TRUE(fleet.boat(std::size_t(boats - 1)).status().ok())
      << fleet.boat(std::size_t(boats - 1)).status().describe();
  EXPECT_GT(fleet.boat(std::size_t(boats - 1)).hydrostatics().submergedVolume_m3, 0);
  w.world.removeAction(&fleet);
}

/// A fleet's blocks double (docs/model.md §3, "The fleet's memory"): its
/// first 960 boats lie in blocks under a huge page (2 MB), so that a small
/// fleet costs none; the next block is whole huge pages, on Linux mapped
/// from the kernel on a huge page's boundary rather than taken from
/// operator new, elsewhere from operator new.
TEST(Allocation, AFleetOfThousandsTakesWholeHugePagesPastItsFirstBlocks) {
  World w;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
  WaterFleet fleet(gerstnerSea(1.5, 6.0, 6, 5, 0.7), 1);
  const int firstBlocks = 64 + 128 + 256 + 512;
  long bytes = 0;  // of the boat that starts the next block
  for (int i = 0; i <= firstBlocks; ++i) {
    btRigidBody* body = w.addBox(btVector3(10, 2.5f, 3.5f), 30000,
                                 btTransform(btQuaternion::getIdentity(), btVector3(btScalar(20 * i), 0, 0)));
    const long before = gBytes.load();
    (void)fleet.add(body, hull);
    bytes = gBytes.load() - before;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(&fleet.boat(std::size_t(firstBlocks)));
  const std::uintptr_t hugePage = std::uintptr_t(2) << 20;
  std::printf("[  figure  ] bytes from operator new as boat %d starts a block: %ld; its offset in a huge page: %zu\n",
              firstBlocks + 1, bytes, std::size_t(address % hugePage));
#ifdef __linux__
  EXPECT_EQ(address % hugePage, 0U);
  EXPECT_LT(bytes, long(hugePage));
#else
  EXPECT_GE(bytes, long(hugePage));
#endif
}

// keel::Propulsion's substep (the water at the hub and the blade, the
// propeller's and the rudder's forces, the velocity change) allocates
// nothing, driven ahead and steered on a sea behind its WaterAction.
TEST(Allocation, NoHeapAllocationPerSubstepInPropulsion) {
  World w;
  const auto hull = hullOf(boatHull(10, 3, 2));
  btRigidBody* body = w.addBox(btVector3(10, 2, 3), 8000, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  const auto sea = std::make_shared<SineSumSurface>(std::vector<WaveComponent>{deepWaterWave(0.3, 15, 0)});
  WaterAction boat(body, hull, sea);
  Propulsion drive(boat, Propeller({.diameter_m = 0.8}), Rudder({.area_m2 = 0.6}),
                   {.propeller_m = btVector3(-4.5f, -1, 0), .rudder_m = btVector3(-5, -0.8f, 0), .rudderSpan_m = 0.9});
  drive.setHelm({.revolutions_ps = 10, .rudder_rad = 0.3});
  w.world.addAction(&boat);
  w.world.addAction(&drive);
  for (int i = 0; i < 10; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const long before = gAllocations.load();
  for (int i = 0; i < 200; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_GT(drive.report().propeller.thrust_N, 0);
  w.world.removeAction(&drive);
  w.world.removeAction(&boat);
}

}  // namespace
}  // namespace keel::test
