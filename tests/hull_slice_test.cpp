// keel::sliceHull, keel::bulkheadCompartments and keel::sideCompartments: slices of a hull are
// closed hulls whose volumes add up to the hull's, exact for polyhedra.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr btScalar kInf = std::numeric_limits<btScalar>::infinity();
const double kEps = double(std::numeric_limits<btScalar>::epsilon());

TEST(HullSlice, BoxBelowAHeightIsTheAnalyticBox) {
  const auto hull = hullOf(box(btVector3(4, 2, 3)));
  const auto below = sliceHull(*hull, btVector3(0, 1, 0), -kInf, btScalar(0.25));
  EXPECT_NEAR(below->volume_m3(), 4 * 1.25 * 3, 32 * kEps * 15);
  EXPECT_NEAR(below->centroid_m().y(), (-1 + 0.25) / 2, 32 * kEps);
  EXPECT_NEAR(below->boundsMax().y(), 0.25, 4 * kEps);
}

TEST(HullSlice, BulkheadsSplitASphereIntoPartsThatAddUp) {
  // Bulkheads through vertices and between them, and along a skew normal.
  const auto hull = hullOf(icosphere(2, 3));
  for (const btVector3& n : {btVector3(1, 0, 0), btVector3(1, btScalar(0.3), btScalar(-0.2))}) {
    const std::vector<btScalar> at{btScalar(-1.2), btScalar(-0.3), 0, btScalar(0.9)};
    const std::vector<Compartment> parts = bulkheadCompartments(*hull, n, at);
    ASSERT_EQ(parts.size(), 5u);
    double sum = 0;
    btVector3 moment(0, 0, 0);
    for (const Compartment& c : parts) {
      EXPECT_GT(c.space->volume_m3(), 0) << c.name;
      EXPECT_EQ(c.space->partCount(), 1u) << c.name;
      sum += double(c.space->volume_m3());
      moment += c.space->centroid_m() * c.space->volume_m3();
    }
    EXPECT_NEAR(sum, hull->volume_m3(), 64 * kEps * hull->volume_m3());
    EXPECT_NEAR((moment / btScalar(sum) - hull->centroid_m()).length(), 0, 64 * kEps);
  }
}

// Split along the centreline too: pairs port then starboard, each on its
// side, the volumes and first moments adding up to the hull's.
TEST(HullSlice, SideCompartmentsSplitEachSlabAtTheCentreline) {
  const auto hull = hullOf(boatHull(6, 2, 1.5f));
  const std::vector<btScalar> at{btScalar(-1), btScalar(1.5)};
  const std::vector<Compartment> parts = sideCompartments(*hull, btVector3(1, 0, 0), at, btVector3(0, 0, 2));
  ASSERT_EQ(parts.size(), 6u);
  double sum = 0;
  btVector3 moment(0, 0, 0);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Compartment& c = parts[i];
    const bool port = i % 2 == 0;
    EXPECT_EQ(c.name, "compartment " + std::to_string(i / 2) + (port ? " port" : " starboard"));
    EXPECT_LE(port ? c.space->boundsMax().z() : -c.space->boundsMin().z(), kEps) << c.name;
    sum += double(c.space->volume_m3());
    moment += c.space->centroid_m() * c.space->volume_m3();
  }
  EXPECT_NEAR(sum, hull->volume_m3(), 64 * kEps * hull->volume_m3());
  EXPECT_NEAR((moment / btScalar(sum) - hull->centroid_m()).length(), 0, 64 * kEps);
  // A box's halves: half of each slab, centred a quarter of the beam out.
  const auto block = hullOf(box(btVector3(6, 2, 2)));
  const std::vector<Compartment> halves = sideCompartments(*block, btVector3(1, 0, 0), at, btVector3(0, 0, 1));
  const double slab[] = {2, 2.5, 1.5};
  for (std::size_t i = 0; i < halves.size(); ++i) {
    EXPECT_NEAR(halves[i].space->volume_m3(), slab[i / 2] * 2, 64 * kEps * 24) << halves[i].name;
    EXPECT_NEAR(halves[i].space->centroid_m().z(), i % 2 == 0 ? -0.5 : 0.5, 64 * kEps) << halves[i].name;
  }
  // A centreline beside the hull leaves one side empty.
  EXPECT_THROW((void)sideCompartments(*hull, btVector3(1, 0, 0), at, btVector3(0, 0, 1), 5), std::invalid_argument);
  EXPECT_THROW((void)sideCompartments(*hull, btVector3(1, 0, 0), at, btVector3(0, 0, 0)), std::invalid_argument);
  EXPECT_THROW((void)sideCompartments(*hull, btVector3(1, 0, 0), at, btVector3(0, 0, 1), btScalar(NAN)),
               std::invalid_argument);
}

// A plane a hair off a row of vertices (closer than the hull's weld
// tolerance) cuts the box into halves of the box's volume.
TEST(HullSlice, PlaneAHairOffVerticesCutsThroughThem) {
  const auto block = hullOf(box(btVector3(6, 2, 2), 4));  // vertices at z = -0.5, 0, 0.5
  for (const btScalar off : {btScalar(4e-7), btScalar(-4e-7)}) {
    const std::vector<Compartment> halves = sideCompartments(*block, btVector3(1, 0, 0), std::vector<btScalar>{},
                                                             btVector3(0, 0, 1), off);
    ASSERT_EQ(halves.size(), 2u);
    // The vertices moved onto the plane: the halves of a cut exactly there.
    EXPECT_NEAR(halves[0].space->volume_m3(), 12 * (1 + double(off)), 64 * kEps * 24);
    EXPECT_NEAR(halves[1].space->volume_m3(), 12 * (1 - double(off)), 64 * kEps * 24);
  }
}

TEST(HullSlice, CatamaranSectionsAreCappedLoopByLoop) {
  Mesh two = box(btVector3(4, 1, 1), 1, btVector3(0, 0, -2));
  const Mesh other = box(btVector3(4, 1, 1), 1, btVector3(0, 0, 2));
  const auto offset = std::uint32_t(two.vertices.size());
  two.vertices.insert(two.vertices.end(), other.vertices.begin(), other.vertices.end());
  for (Hull::Triangle t : other.triangles) two.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  const auto hull = hullOf(two);
  const auto middle = sliceHull(*hull, btVector3(1, 0, 0), -1, 1);
  EXPECT_EQ(middle->partCount(), 2u);
  EXPECT_NEAR(middle->volume_m3(), 2 * 2 * 1 * 1, 64 * kEps * 4);
}

TEST(HullSlice, SimplifiedCompartmentsOfAFineBoxAreBoxesOfTheSameVolume) {
  // The 972-triangle box cut at three bulkheads: each compartment, 432 to
  // 486 triangles as cut, is a box whose flat faces need 2 triangles each.
  const auto hull = hullOf(box(btVector3(4, btScalar(1.5), 2), 9));
  const btScalar at[] = {-1, 0, 1};
  const std::vector<Compartment> fine = bulkheadCompartments(*hull, btVector3(1, 0, 0), at);
  const std::vector<Compartment> coarse = bulkheadCompartments(*hull, btVector3(1, 0, 0), at, btScalar(1e-3));
  ASSERT_EQ(coarse.size(), 4u);
  double sum = 0;
  for (std::size_t i = 0; i < coarse.size(); ++i) {
    EXPECT_GT(fine[i].space->triangles().size(), 400u) << i;
    EXPECT_EQ(coarse[i].space->triangles().size(), 12u) << i;
    // Flat faces merged: the same box, to the rounding of its corners.
    EXPECT_NEAR(coarse[i].space->volume_m3(), fine[i].space->volume_m3(), 64 * kEps * 3) << i;
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(coarse[i].space->centroid_m()[k], fine[i].space->centroid_m()[k], 64 * kEps * 2) << i;
    sum += double(coarse[i].space->volume_m3());
  }
  EXPECT_NEAR(sum, 12.0, 256 * kEps * 12);
}

TEST(HullSlice, SimplifyingACurvedHullStaysWithinItsTolerance) {
  // A sphere of radius 2 (1,280 triangles): simplified at 5 cm (300
  // triangles: nothing collapses at 2 cm, its edges' sagitta being about
  // that), its volume moves by at most the tolerance times its area; 0
  // keeps the hull itself.
  const auto hull = hullOf(icosphere(2, 3));
  const auto coarse = simplifiedHull(hull, btScalar(0.05));
  EXPECT_LT(coarse->triangles().size(), hull->triangles().size() / 2);
  const double area = 4 * 3.14159265358979 * 4;
  EXPECT_LE(std::abs(double(coarse->volume_m3()) - double(hull->volume_m3())), 0.05 * area);
  EXPECT_EQ(simplifiedHull(hull, 0).get(), hull.get());
  EXPECT_THROW((void)simplifiedHull(nullptr, 1), std::invalid_argument);
  EXPECT_THROW((void)simplifiedHull(hull, -1), std::invalid_argument);
  EXPECT_THROW((void)simplifiedHull(hull, std::numeric_limits<btScalar>::quiet_NaN()), std::invalid_argument);
  const btScalar at[] = {0};
  EXPECT_THROW((void)bulkheadCompartments(*hull, btVector3(1, 0, 0), at, -1), std::invalid_argument);
}

TEST(HullSlice, RejectsBadPlanes) {
  const auto hull = hullOf(box(btVector3(4, 2, 3)));
  EXPECT_THROW((void)sliceHull(*hull, btVector3(0, 0, 0), 0, 1), std::invalid_argument);
  EXPECT_THROW((void)sliceHull(*hull, btVector3(1, 0, 0), 1, 1), std::invalid_argument);
  EXPECT_THROW((void)sliceHull(*hull, btVector3(1, 0, 0), 5, 6), std::invalid_argument);
  const std::vector<btScalar> down{1, 0};
  EXPECT_THROW((void)bulkheadCompartments(*hull, btVector3(1, 0, 0), down), std::invalid_argument);
}

}  // namespace
}  // namespace keel::test
