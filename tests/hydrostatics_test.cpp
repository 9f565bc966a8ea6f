// Hydrostatics against the analytic cases of docs/model.md §5: the reference
// pipeline (tests/support/reference.hpp) and the one-shot query
// keel::hydrostaticsAtPose, no Bullet world.
#include "reference.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

namespace keel::test {
using namespace keel::reference;  // the scalar oracle
namespace {

constexpr double kRho = 1025;
constexpr double kPi = 3.14159265358979323846;

btTransform at(const btVector3& origin, const btQuaternion& q = btQuaternion::getIdentity()) {
  return btTransform(q, origin);
}

btQuaternion randomRotation(std::mt19937& rng) {
  // Uniform on SO(3) (Shoemake): normalised 4D Gaussian.
  std::normal_distribution<double> n;
  btQuaternion q(btScalar(n(rng)), btScalar(n(rng)), btScalar(n(rng)), btScalar(n(rng)));
  return q.normalized();
}

// --- 6a: box at several drafts ------------------------------------------------

TEST(Hydrostatics, BoxForceAndCentreOfBuoyancyAtSeveralDrafts) {
  const double L = 6, B = 2.5, D = 2;  // x, z, y extents [m]
  const auto hull = hullOf(box(btVector3(btScalar(L), btScalar(D), btScalar(B))));
  for (double T : {0.1, 0.5, 1.0, 1.5, 1.9}) {
    // Keel at y = -D/2 in the body frame; water at y = 0.
    const btTransform com = at(btVector3(0, btScalar(D / 2 - T), 0));
    const HydrostaticResult r = hydrostaticsAt(*hull, com, LevelWater());
    const double expected = kRho * kG * L * B * T;
    EXPECT_NEAR(r.force_N.y(), expected, expected * 2e-6) << "T=" << T;
    EXPECT_NEAR(r.force_N.x(), 0, expected * 1e-6);
    EXPECT_NEAR(r.force_N.z(), 0, expected * 1e-6);
    EXPECT_NEAR(r.submergedVolume_m3, L * B * T, L * B * T * 2e-6);
    // Centre of buoyancy T/2 above the keel, on the centreline.
    EXPECT_NEAR(r.centreOfBuoyancy_m.y(), -D / 2 + T / 2, 2e-6 * D);
    EXPECT_NEAR(r.centreOfBuoyancy_m.x(), 0, 2e-6 * L);
    EXPECT_NEAR(r.centreOfBuoyancy_m.z(), 0, 2e-6 * B);
    EXPECT_NEAR(r.wettedArea_m2, L * B + 2 * (L + B) * T, 2e-6 * (L * B + 2 * (L + B) * T));
    // The hydrostatic potential energy's integral: int_V depth dV = L B T^2 / 2.
    EXPECT_NEAR(r.depthIntegral_m4, L * B * T * T / 2, 2e-6 * L * B * T * T / 2);
    // Upright, centred: no torque.
    EXPECT_LT(r.torque_Nm.length(), expected * 1e-6);
  }
}

TEST(Hydrostatics, CoarseAndFineBoxAgreeIncludingTorque) {
  const btVector3 size(4, 2, 3);
  const auto coarse = hullOf(box(size, 1));
  const auto fine = hullOf(box(size, 13));
  ASSERT_EQ(coarse->triangles().size(), 12u);
  ASSERT_GE(fine->triangles().size(), 2000u);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> depth(-1.2, 1.2);
  for (int trial = 0; trial < 10; ++trial) {
    // Heeled and trimmed, partly submerged: the pieces' centre of pressure
    // must be exact for the 12-triangle box to give the fine box's torque.
    const btTransform com = at(btVector3(0.3f, btScalar(depth(rng)), -0.2f), randomRotation(rng));
    const HydrostaticResult a = hydrostaticsAt(*coarse, com, LevelWater());
    const HydrostaticResult b = hydrostaticsAt(*fine, com, LevelWater());
    const double scale = b.force_N.length();
    ASSERT_GT(scale, 0);
    EXPECT_LT((a.force_N - b.force_N).length(), 1e-5 * scale) << trial;
    // Torque scale: force times the box's size (the torque itself may be small).
    EXPECT_LT((a.torque_Nm - b.torque_Nm).length(), 1e-5 * scale * size.length()) << trial;
    EXPECT_LT((a.torque_Nm - b.torque_Nm).length(), 1e-5 * b.torque_Nm.length() + 1e-6 * scale) << trial;
  }
}

TEST(Hydrostatics, CentroidForcesWouldTipACoarseBox) {
  // Why the exact centre of pressure matters (docs/model.md §1, "The pressure integral"): on flat
  // water an upright box has zero torque; applying each piece's force at its
  // centroid instead gives a spurious torque on a coarse, trimmed box.
  const auto coarse = hullOf(box(btVector3(4, 2, 3), 1));
  const btTransform com = at(btVector3(0, -0.3f, 0), btQuaternion(btVector3(0, 0, 1), 0.3f));
  CutBuffers cut;
  const HydrostaticResult exact = hydrostaticsAt(*coarse, com, LevelWater(), kRho, 0, &cut);
  btVector3 centroidTorque(0, 0, 0);
  for (const auto& p : cut.pieces) {
    const btVector3 s = (p.r[1] - p.r[0]).cross(p.r[2] - p.r[0]) * btScalar(0.5);
    const btVector3 f = -s * btScalar(kRho * kG * (p.depth_m[0] + p.depth_m[1] + p.depth_m[2]) / 3);
    centroidTorque += ((p.r[0] + p.r[1] + p.r[2]) / 3).cross(f);
  }
  // The exact torque is the one of the buoyancy through the volume centroid.
  const btVector3 expected = exact.centreOfBuoyancy_m.cross(exact.force_N);
  EXPECT_LT((exact.torque_Nm - expected).length(), 1e-5 * exact.force_N.length());
  EXPECT_GT((centroidTorque - expected).length(), 1e-2 * exact.force_N.length());
}

// --- 6b: heeled box, wall-sided formula -------------------------------------

TEST(Hydrostatics, HeeledBoxRightingMomentMatchesWallSidedFormula) {
  const double L = 10, B = 4, D = 3, T = 1, KG = 1.2;  // [m]
  // Body frame: origin at G, keel at y = -KG; length along x, beam along z.
  const auto hull = hullOf(
      box(btVector3(btScalar(L), btScalar(D), btScalar(B)), 4, btVector3(0, btScalar(D / 2 - KG), 0)));
  const double V = L * B * T, KB = T / 2, BM = B * B / (12 * T), GM = KB + BM - KG;
  const double limit = std::atan(std::min(2 * (D - T) / B, 2 * T / B));
  int checked = 0;
  double worst = 0;
  for (double phi = 0.02; phi <= limit; phi += 0.02, ++checked) {
    const btQuaternion heel(btVector3(1, 0, 0), btScalar(phi));
    // Keep the centreline point at draft T on the water: wall-sided heel at
    // constant displacement rotates about it.
    const btVector3 waterlineCentre_body(0, btScalar(T - KG), 0);
    const btVector3 origin(0, -quatRotate(heel, waterlineCentre_body).y(), 0);
    const HydrostaticResult r = hydrostaticsAt(*hull, at(origin, heel), LevelWater());
    const double GZ = std::sin(phi) * (GM + BM * std::pow(std::tan(phi), 2) / 2);
    const double expected = kRho * kG * V * GZ;
    EXPECT_NEAR(r.force_N.y(), kRho * kG * V, kRho * kG * V * 2e-6) << "phi=" << phi;
    // A positive heel about +x is righted by a torque about -x.
    EXPECT_NEAR(-r.torque_Nm.x(), expected, 1e-4 * expected) << "phi=" << phi;
    worst = std::max(worst, std::abs(-r.torque_Nm.x() - expected) / expected);
  }
  EXPECT_GE(checked, 10);
  reportFigure("heeled box: worst relative error of the righting moment", worst, 0);
}

// --- 6c: fully submerged closed hulls ---------------------------------------

void expectArchimedes(const Hull& hull, const char* name) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> depth(1.0, 50.0);
  const double R = double(hull.radius_m()), V = double(hull.volume_m3()), A = double(hull.area_m2());
  for (int trial = 0; trial < 20; ++trial) {
    const btQuaternion q = randomRotation(rng);
    const double below_m = depth(rng);
    const btTransform com = at(btVector3(1.5f, -btScalar(hull.radius_m() + below_m), -3.0f), q);
    const HydrostaticResult r = hydrostaticsAt(hull, com, LevelWater());
    const double weight = kRho * kG * V;
    // Rounding: each triangle's pressure term is about rho g d a (d up to
    // the depth of the hull's bottom, R + below), rounded a few times, and
    // their sum over the n triangles cancels down to rho g V. Independent
    // roundings add up as a random walk, sqrt(n) eps of the terms'
    // magnitude (Higham, Accuracy and Stability of Numerical Algorithms,
    // 2nd ed., section 4.2): the force errs by about 4 sqrt(n) eps (R +
    // below) A / V of itself, the centre of buoyancy by that times R. (The
    // deepest trials, 50 m down, cancel 200-fold.)
    const double n = double(hull.triangles().size());
    const double relative = 4 * std::sqrt(n) * double(std::numeric_limits<btScalar>::epsilon()) * (R + below_m) * A / V;
    EXPECT_NEAR(r.force_N.y(), weight, relative * weight) << name << " trial " << trial;
    EXPECT_LT(std::hypot(r.force_N.x(), r.force_N.z()), relative * weight) << name << " trial " << trial;
    // Zero torque about the volume centroid: all of it is the buoyancy's
    // moment about the centre of mass.
    const btVector3 centroid = quatRotate(q, hull.centroid_m());
    const btVector3 aboutCentroid = r.torque_Nm - centroid.cross(r.force_N);
    EXPECT_LT(aboutCentroid.length(), relative * weight * R) << name << " trial " << trial;
    EXPECT_LT((r.centreOfBuoyancy_m - centroid).length(), relative * R) << name << " trial " << trial;
  }
}

TEST(Hydrostatics, SubmergedBoxIsArchimedes) {
  expectArchimedes(*hullOf(box(btVector3(3, 1, 2), 3, btVector3(0.2f, -0.1f, 0.3f))), "box");
}

TEST(Hydrostatics, SubmergedIcosphereIsArchimedes) {
  expectArchimedes(*hullOf(icosphere(1.3f, 3, btVector3(0, 0.2f, 0))), "icosphere");
}

TEST(Hydrostatics, SubmergedBoatHullIsArchimedes) { expectArchimedes(*hullOf(boatHull(12, 4, 2.5)), "boat"); }

// --- 6d: sphere cap, O(h^2) convergence ---------------------------------------

TEST(Hydrostatics, SphereCapConvergesQuadratically) {
  const double R = 2, h = 1.3;  // radius, submerged cap height [m]
  const double V = kPi * h * h * (3 * R - h) / 3;
  const double centroidBelowCentre = 3 * std::pow(2 * R - h, 2) / (4 * (3 * R - h));
  std::vector<double> volumeError, centroidError;
  for (int level = 2; level <= 5; ++level) {
    const auto hull = hullOf(icosphere(btScalar(R), level));
    // A rotation off the icosahedron's symmetry axes so the waterline cuts
    // triangles generically.
    const btQuaternion q(btVector3(1, 2, 3).normalized(), 0.4f);
    const HydrostaticResult r = hydrostaticsAt(*hull, at(btVector3(0, btScalar(R - h), 0), q), LevelWater());
    volumeError.push_back(std::abs(r.submergedVolume_m3 - V) / V);
    centroidError.push_back(std::abs(-r.centreOfBuoyancy_m.y() - centroidBelowCentre) / R);
    std::printf("[  figure  ] sphere cap, icosphere level %d: volume error %.3g, centroid error %.3g (relative)\n",
                level, volumeError.back(), centroidError.back());
  }
  // Edge length halves per level: O(h^2) means the error quarters.
  for (std::size_t i = 0; i + 1 < volumeError.size(); ++i) {
    const double volumeOrder = std::log2(volumeError[i] / volumeError[i + 1]);
    EXPECT_NEAR(volumeOrder, 2.0, 0.25) << "levels " << i + 2 << "->" << i + 3;
  }
  const double centroidOrder = std::log2(centroidError.front() / centroidError.back()) / 3;
  EXPECT_NEAR(centroidOrder, 2.0, 0.35);
  EXPECT_LT(volumeError.back(), 2e-3);
  EXPECT_LT(centroidError.back(), 2e-3);
}

// --- 6e: tilted water plane ---------------------------------------------------

class TiltedWater final : public WaterSurface {
 public:
  explicit TiltedWater(btScalar slope) : s_(slope) {}
  btScalar height(btScalar x, btScalar, double) const override { return s_ * x; }

 private:
  btScalar s_;
};

TEST(Hydrostatics, TiltedPlanePushesTowardsTheLowSide) {
  const double s = 0.1;
  for (const Mesh& m : {box(btVector3(2, 1, 1.5), 2), icosphere(1, 3)}) {
    const auto hull = hullOf(m);
    const double V = hull->volume_m3();
    std::mt19937 rng(3);
    for (int trial = 0; trial < 5; ++trial) {
      const btTransform com = at(btVector3(2, -5, 1), randomRotation(rng));
      const HydrostaticResult r = hydrostaticsAt(*hull, com, TiltedWater(btScalar(s)));
      const double w = kRho * kG * V;
      EXPECT_NEAR(r.force_N.x(), -w * s, 1e-5 * w);
      EXPECT_NEAR(r.force_N.y(), w, 1e-5 * w);
      EXPECT_NEAR(r.force_N.z(), 0, 1e-5 * w);
    }
  }
}

TEST(Hydrostatics, PartlySubmergedOnASlopeIsPushedDownhill) {
  const auto hull = hullOf(box(btVector3(2, 1, 1.5), 2));
  const HydrostaticResult r = hydrostaticsAt(*hull, at(btVector3(0, 0, 0)), TiltedWater(0.1f));
  EXPECT_LT(r.force_N.x(), -0.05 * r.force_N.y());  // downhill is -x
}

// --- the cut itself -------------------------------------------------------------

TEST(Cut, PiecesKeepWindingAndWaterlineIsOnTheSurface) {
  const auto hull = hullOf(icosphere(1, 2));
  CutBuffers cut;
  const btTransform com = at(btVector3(0, 0.3f, 0), btQuaternion(btVector3(0, 0, 1), 0.5f));
  (void)hydrostaticsAt(*hull, com, LevelWater(), kRho, 0, &cut);
  ASSERT_FALSE(cut.pieces.empty());
  ASSERT_LE(cut.pieces.size(), 2 * hull->triangles().size());
  for (const auto& p : cut.pieces) {
    const btVector3 n = (p.r[1] - p.r[0]).cross(p.r[2] - p.r[0]);
    // Outward on a sphere centred at the centre of mass: normal . position > 0.
    EXPECT_GT(n.dot(p.r[0] + p.r[1] + p.r[2]), 0);
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(p.depth_m[k], 0);
      // Depth is the vertex's distance below y = 0 (the water).
      EXPECT_NEAR(p.depth_m[k], -(com.getOrigin().y() + p.r[k].y()), 1e-6);
    }
  }
  for (const auto& s : cut.waterline) {
    EXPECT_NEAR(com.getOrigin().y() + s.a.y(), 0, 1e-6);
    EXPECT_NEAR(com.getOrigin().y() + s.b.y(), 0, 1e-6);
  }
  // The waterline is a closed loop: its length is the circle's perimeter
  // up to the tessellation's O(h^2).
  double length = 0;
  for (const auto& s : cut.waterline) length += s.a.distance(s.b);
  const double radius = std::sqrt(1 - 0.3 * 0.3);
  EXPECT_NEAR(length, 2 * kPi * radius, 0.05 * 2 * kPi * radius);
}

TEST(Cut, DryAndSubmergedHulls) {
  const auto hull = hullOf(box(btVector3(1, 1, 1)));
  CutBuffers cut;
  HydrostaticResult r = hydrostaticsAt(*hull, at(btVector3(0, 5, 0)), LevelWater(), kRho, 0, &cut);
  EXPECT_TRUE(cut.pieces.empty());
  EXPECT_EQ(r.force_N, btVector3(0, 0, 0));
  EXPECT_EQ(r.submergedVolume_m3, 0);
  r = hydrostaticsAt(*hull, at(btVector3(0, -5, 0)), LevelWater(), kRho, 0, &cut);
  EXPECT_EQ(cut.pieces.size(), 12u);
  EXPECT_TRUE(cut.waterline.empty());
}

}  // namespace
}  // namespace keel::test
