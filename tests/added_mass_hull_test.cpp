// The added-mass model on polyhedral hulls (docs/model.md, "Added mass"):
// a sphere deep under water (rho V / 2), a floating hemisphere (Hulme,
// JFM 121, 1982: 0.5 rho V in heave at infinite frequency), a submerged
// ellipsoid (Lamb), a cube against DNV-RP-H103; symmetric, positive
// semi-definite, rotating with the hull, zero when dry, continuous from dry
// to deep, finite for any input; and the query on flat water.

#include <keel/added_mass.hpp>
#include <keel/volume_moments.hpp>

#include "added_mass/added_mass.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kPi = std::numbers::pi;
const btVector3 kUp(0, 0, 1);  // heave is z in these tests

/// The icosphere scaled to semi-axes a, b, c about `centre`.
Mesh ellipsoidMesh(double a, double b, double c, int levels, const btVector3& centre = btVector3(0, 0, 0)) {
  Mesh m = icosphere(1, levels);
  for (btVector3& v : m.vertices) v = centre + btVector3(btScalar(a * v.x()), btScalar(b * v.y()), btScalar(c * v.z()));
  return m;
}

AddedMass below(const Hull& hull, double h, const btVector3& up = kUp) {
  return detail::addedMassBelowPlane(hull, up, h, kRho);
}

double largest(const AddedMass& m) {
  double out = 0;
  for (double e : m.matrix) out = std::max(out, std::abs(e));
  return out;
}

/// Whether m + tolerance * largest(m) * 1 has a Cholesky factor: positive
/// semi-definite to `tolerance`.
bool positiveSemiDefinite(const AddedMass& m, double tolerance) {
  std::array<double, 36> l{};
  const double shift = tolerance * largest(m) + 1e-300;
  for (int j = 0; j < 6; ++j) {
    double d = m(j, j) + shift;
    for (int k = 0; k < j; ++k) d -= l[6 * j + k] * l[6 * j + k];
    if (!(d > 0)) return false;
    l[6 * j + j] = std::sqrt(d);
    for (int i = j + 1; i < 6; ++i) {
      double s = m(i, j);
      for (int k = 0; k < j; ++k) s -= l[6 * i + k] * l[6 * j + k];
      l[6 * i + j] = s / l[6 * j + j];
    }
  }
  return true;
}

void expectFiniteSymmetric(const AddedMass& m, const char* what) {
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      ASSERT_TRUE(std::isfinite(m(r, c))) << what;
      ASSERT_EQ(m(r, c), m(c, r)) << what << " " << r << ", " << c;
    }
}

TEST(AddedMassModel, DeepSphereIsHalfItsDisplacedMass) {
  const auto hull = hullOf(icosphere(1, 4));
  const double volume = volumeMoments(*hull).zeroth, sphere = 4.0 / 3 * kPi;
  for (const double h : {3.0, 100.0, HUGE_VAL}) {
    const AddedMass m = below(*hull, h);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(m(i, i), kRho * volume / 2, 1e-6 * kRho * volume) << h;
    for (int i = 3; i < 6; ++i) EXPECT_NEAR(m(i, i), 0, 1e-6 * kRho * volume) << h;
  }
  reportFigure("deep sphere (5120 faces) surge / (rho (4/3) pi R^3 / 2)",
               below(*hull, HUGE_VAL)(0, 0) / (kRho * sphere / 2), 1);
}

TEST(AddedMassModel, FloatingHemisphereHeavesAsHulmesInfiniteFrequencyLimit) {
  const auto hull = hullOf(icosphere(1, 4));
  const double wet = volumeMomentsBelow(*hull, kUp, 0).zeroth, hemisphere = 2.0 / 3 * kPi;
  const AddedMass m = below(*hull, 0);
  // The double body is the whole sphere: half of its rho V / 2 in heave
  // (Hulme's mu(inf) = 0.5) and, by the rigid lid, in surge and sway.
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m(i, i), 0.5 * kRho * wet, 1e-6 * kRho * wet) << i;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c)
      if (r != c || r >= 3) {
        EXPECT_NEAR(m(r, c), 0, 1e-6 * kRho * wet) << r << ", " << c;
      }
  reportFigure("floating hemisphere heave / (0.5 rho (2/3) pi R^3)", m(2, 2) / (0.5 * kRho * hemisphere), 1);
}

TEST(AddedMassModel, MovesToTheCentreOfMassAsARigidBody) {
  // The floating sphere with its centre of mass 0.3 m above the sphere's
  // centre: the double body's velocity there is v + w x r, r = (0, 0, -0.3),
  // so A = T^T diag(m, m, m, 0, 0, 0) T: surge-pitch -0.3 m, sway-roll
  // +0.3 m, roll and pitch 0.09 m, m = rho V_wet / 2.
  const double r = 0.3;
  const auto hull = hullOf(icosphere(1, 4, btVector3(0, 0, btScalar(-r))));
  const double m = kRho * volumeMomentsBelow(*hull, kUp, -r).zeroth / 2;
  const AddedMass a = below(*hull, -r);
  const double expected[6][6] = {{m, 0, 0, 0, -r * m, 0},        {0, m, 0, r * m, 0, 0},          {0, 0, m, 0, 0, 0},
                                 {0, r * m, 0, r * r * m, 0, 0}, {-r * m, 0, 0, 0, r * r * m, 0}, {0, 0, 0, 0, 0, 0}};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(a(i, j), expected[i][j], 1e-6 * m) << i << ", " << j;
}

TEST(AddedMassModel, SubmergedEllipsoidIsLambsAlongEachAxis) {
  const double a = 2, b = 1, c = 0.5;
  const auto hull = hullOf(ellipsoidMesh(a, b, c, 4));
  const double volume = volumeMoments(*hull).zeroth, scale = std::cbrt(volume / (4.0 / 3 * kPi * a * b * c));
  const AddedMass m = below(*hull, HUGE_VAL);
  const AddedMass lamb = ellipsoidAddedMass(a * scale, b * scale, c * scale, kRho);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(m(i, i), lamb(i, i), 1e-6 * lamb(i, i)) << i;
  for (int r = 0; r < 6; ++r)
    for (int col = 0; col < 6; ++col)
      if (r != col) {
        EXPECT_NEAR(m(r, col), 0, 1e-6 * largest(lamb)) << r << ", " << col;
      }
  const AddedMass exact = ellipsoidAddedMass(a, b, c, kRho);
  for (int i = 0; i < 6; ++i) {
    const char* names[] = {"surge", "sway", "heave", "roll", "pitch", "yaw"};
    const std::string name = std::string("submerged 2:1:0.5 ellipsoid (5120 faces) ") + names[i];
    reportFigure(name.c_str(), m(i, i), exact(i, i));
  }
}

TEST(AddedMassModel, CubeIsItsEquivalentSphere) {
  const auto hull = hullOf(box(btVector3(1, 1, 1), 4));
  const AddedMass m = below(*hull, HUGE_VAL);
  // A cube's second moments are isotropic: the sphere of its volume, 0.5.
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m(i, i) / kRho, 0.5, 1e-12) << i;
  // DNV-RP-H103 (2011), Table A-2: C_A = 0.67 for a cube, V_R = a^3.
  reportFigure("deep cube C_A, model against DNV-RP-H103's", m(0, 0) / kRho, 0.67);
}

/// R A R^T in each 3 x 3 block.
AddedMass rotated(const AddedMass& m, const btMatrix3x3& r) {
  AddedMass out;
  for (int br = 0; br < 2; ++br)
    for (int bc = 0; bc < 2; ++bc)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double s = 0;
          for (int k = 0; k < 3; ++k)
            for (int l = 0; l < 3; ++l) s += double(r[i][k]) * m(3 * br + k, 3 * bc + l) * double(r[j][l]);
          out.matrix[std::size_t(6 * (3 * br + i) + 3 * bc + j)] = s;
        }
  return out;
}

TEST(AddedMassModel, TurnsWithTheHull) {
  const Mesh mesh = ellipsoidMesh(1.5, 0.8, 0.4, 3, btVector3(btScalar(0.3), btScalar(-0.2), btScalar(0.1)));
  const auto hull = hullOf(mesh);
  const btMatrix3x3 r(btQuaternion(btVector3(1, 2, 3).normalized(), btScalar(0.7)));
  Mesh turned = mesh;
  for (btVector3& v : turned.vertices) v = r * v;
  const auto turnedHull = hullOf(turned);
  const btVector3 up = btVector3(btScalar(0.2), btScalar(-0.3), 1).normalized();
  for (const double h : {-0.2, 0.05, 0.3, 0.45, 1.0}) {
    const AddedMass a = rotated(below(*hull, h, up), r), b = below(*turnedHull, h, r * up);
    for (std::size_t k = 0; k < 36; ++k) EXPECT_NEAR(a.matrix[k], b.matrix[k], 2e-5 * largest(a)) << h << " " << k;
  }
}

TEST(AddedMassModel, SymmetricAndPositiveSemiDefinite) {
  const auto hull = hullOf(boatHull(6, 2, 1.2));
  int wet = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const double tilt = 0.1 * trial;
    const btVector3 up =
        btVector3(btScalar(std::sin(tilt)), btScalar(std::cos(tilt)), btScalar(0.3 * std::sin(3 * tilt))).normalized();
    const AddedMass m = below(*hull, -0.8 + 0.05 * trial, up);
    expectFiniteSymmetric(m, "boat hull");
    EXPECT_TRUE(positiveSemiDefinite(m, 1e-12)) << trial;
    wet += m.isZero() ? 0 : 1;
  }
  EXPECT_GE(wet, 30);
}

TEST(AddedMassModel, ZeroWhenDryAndSmallForASliver) {
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  for (const double h : {-0.5, -0.6, -HUGE_VAL}) EXPECT_TRUE(below(*hull, h).isZero()) << h;
  const double floating = largest(below(*hull, 0));
  for (const double sliver : {1e-12, 1e-9, 1e-6, 1e-3}) {
    const AddedMass m = below(*hull, -0.5 + sliver);
    expectFiniteSymmetric(m, "sliver");
    EXPECT_FALSE(m.isZero()) << sliver;
    EXPECT_TRUE(positiveSemiDefinite(m, 1e-9)) << sliver;
    // At most in proportion to the wet volume (the flatness floor).
    EXPECT_LT(largest(m), 50 * sliver * floating) << sliver;
  }
}

/// The largest change of any element [kg, kg m, kg m^2] between planes
/// `step` apart, swept from below the hull to two heights under it.
double largestJump(const Hull& hull, const btVector3& up, double lowest, double highest, double step) {
  double jump = 0;
  AddedMass last = below(hull, lowest - step, up);
  for (double h = lowest - step; h < highest + 2 * (highest - lowest); h += step) {
    const AddedMass m = below(hull, h, up);
    for (std::size_t k = 0; k < 36; ++k) jump = std::max(jump, std::abs(m.matrix[k] - last.matrix[k]));
    last = m;
  }
  return jump;
}

TEST(AddedMassModel, ContinuousFromDryToDeep) {
  const btVector3 tilted = btVector3(btScalar(0.1), btScalar(0.2), 1).normalized();
  struct Case {
    const char* name;
    Mesh mesh;
    btVector3 up;
  };
  const Case cases[] = {{"sphere", icosphere(1, 2), kUp},
                        {"flat box", box(btVector3(2, 1, 1), 2), kUp},
                        {"tilted box", box(btVector3(2, 1, 1), 2), tilted},
                        {"boat", boatHull(6, 2, 1.2, 12, 4), btVector3(0, 1, 0)}};
  for (const Case& c : cases) {
    const auto hull = hullOf(c.mesh);
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (const btVector3& v : hull->vertices()) {
      lo = std::min(lo, double(v.dot(c.up)));
      hi = std::max(hi, double(v.dot(c.up)));
    }
    const double step = (hi - lo) / 100;
    // A jump would stay as the step shrinks; a continuous A's changes shrink with it.
    const double coarse = largestJump(*hull, c.up, lo, hi, step), fine = largestJump(*hull, c.up, lo, hi, step / 4);
    EXPECT_LT(fine, 0.5 * coarse) << c.name;
    std::printf("[  figure  ] %s: largest change of an element over the sweep, step H/100: %.4g, H/400: %.4g\n", c.name,
                coarse, fine);
    // Where the top goes under, the piercing pair meets the submerged blend.
    const AddedMass at = below(*hull, hi, c.up), over = below(*hull, hi + 1e-9 * (hi - lo), c.up);
    for (std::size_t k = 0; k < 36; ++k) EXPECT_NEAR(at.matrix[k], over.matrix[k], 1e-6 * largest(at)) << c.name;
  }
}

TEST(AddedMassModel, NonFiniteInputGivesNoNaN) {
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  const double nan = std::nan("");
  EXPECT_TRUE(below(*hull, nan).isZero());
  EXPECT_TRUE(below(*hull, 0, btVector3(0, 0, 0)).isZero());
  EXPECT_TRUE(below(*hull, 0, btVector3(btScalar(nan), 0, 1)).isZero());
  EXPECT_TRUE(below(*hull, 0, btVector3(BT_INFINITY, 0, 1)).isZero());
  EXPECT_TRUE(detail::addedMassBelowPlane(*hull, kUp, 0, nan).isZero());
  EXPECT_TRUE(detail::addedMassBelowPlane(*hull, kUp, 0, -1).isZero());
  const AddedMass deep = below(*hull, 1e300);
  expectFiniteSymmetric(deep, "far below");
  EXPECT_EQ(deep, below(*hull, HUGE_VAL));
  // The whole hull's moments, kept, give the same bits as integrated again.
  const Moments whole = volumeMoments(*hull);
  for (const double h : {-0.2, 0.5, 0.7, 3.0})
    EXPECT_EQ(detail::addedMassBelowPlane(*hull, kUp, h, kRho, &whole), below(*hull, h)) << h;
}

TEST(AddedMassAtPose, OnFlatWaterIsTheModelBelowTheLevelPlane) {
  const auto hull = hullOf(boatHull(6, 2, 1.2));
  const FlatSurface water(0.4);
  for (int trial = 0; trial < 6; ++trial) {
    const btTransform pose(
        btQuaternion(btVector3(1, btScalar(0.5), btScalar(0.2 * trial)).normalized(), btScalar(0.15 * trial)),
        btVector3(3, btScalar(0.2 * trial - 0.3), -2));
    const AddedMass m = addedMassAtPose(*hull, pose, water);  // y up, sea water
    const btVector3 up = btVector3(0, 1, 0) * pose.getBasis();
    const AddedMass expected = detail::addedMassBelowPlane(*hull, up, 0.4 - double(pose.getOrigin().y()), 1025);
    for (std::size_t k = 0; k < 36; ++k)
      EXPECT_NEAR(m.matrix[k], expected.matrix[k], 1e-5 * largest(expected)) << trial;
    EXPECT_FALSE(expected.isZero()) << trial;
  }
  EXPECT_TRUE(addedMassAtPose(*hull, btTransform(btQuaternion::getIdentity(), btVector3(0, 5, 0)), water).isZero());
  EXPECT_DOUBLE_EQ(detail::meanWaterHeight(std::array<btScalar, 3>{1, 2, 6}), 3);
  EXPECT_EQ(detail::meanWaterHeight({}), 0);
}

TEST(AddedMassAtPose, BadQueriesThrowAsHydrostaticsAtPose) {
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  const FlatSurface flat;
  const FunctionSurface nan([](btScalar, btScalar, double) { return std::numeric_limits<btScalar>::quiet_NaN(); });
  PoseQuery noGravity, negativeDensity;
  noGravity.gravity_mps2 = btVector3(0, 0, 0);
  negativeDensity.waterDensity_kgpm3 = -1;
  btTransform far = btTransform::getIdentity();
  far.setOrigin(btVector3(BT_INFINITY, 0, 0));
  struct Case {
    const char* name;
    btTransform pose;
    const WaterSurface& surface;
    PoseQuery query;
    const char* says;
  };
  const Case cases[] = {{"no gravity", btTransform::getIdentity(), flat, noGravity, "gravity zero"},
                        {"negative density", btTransform::getIdentity(), flat, negativeDensity, "density"},
                        {"non-finite pose", far, flat, PoseQuery{}, "not finite"},
                        {"NaN water", btTransform::getIdentity(), nan, PoseQuery{}, "no finite water height"}};
  for (const Case& c : cases) {
    EXPECT_THROW((void)hydrostaticsAtPose(*hull, c.pose, c.surface, c.query), std::invalid_argument) << c.name;
    try {
      (void)addedMassAtPose(*hull, c.pose, c.surface, c.query);
      ADD_FAILURE() << c.name << ": no throw";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("keel::addedMassAtPose"), std::string::npos) << what;
      EXPECT_NE(what.find(c.says), std::string::npos) << c.name << ": " << what;
    }
  }
}

}  // namespace
}  // namespace keel::test
