// Mass properties (keel/mass_properties.hpp) against closed forms: a solid
// box, a thin box shell as six plates, a box with ballast in its bottom half,
// point masses, compartments, the principal frame of a turned box, and the
// hull moved into it.
#include "mass/mass_detail.hpp"
#include "mass_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr double kRho = 500;  // [kg/m^3]

TEST(MassProperties, SolidBoxIsExact) {
  // a x b x c = 2 x 1 x 4 m, centred off the origin, faces split 3 x 3.
  const btVector3 size(2, 1, 4), centre(0.5f, -0.25f, 1);
  const auto hull = hullOf(box(size, 3, centre));
  const Moments v = volumeMoments(*hull);
  EXPECT_NEAR(v.zeroth, 8, 8 * kExact);
  const MassProperties m = massProperties(*hull, kRho);
  expectProperties(m, boxBody(kRho * 8, size, centre), kRel);
}

TEST(MassProperties, ThinBoxShellIsTheSumOfItsSixPlates) {
  const btVector3 size(3, 1, 2), centre(-1, 0.5f, 0.25f);
  const double thickness_m = 0.01, rho = 2000;
  const double sigma = rho * thickness_m;  // [kg/m^2]
  // Each pair of faces normal to axis k: plates of sides s_i, s_j at +-s_k/2;
  // each plate's own inertia sigma A (s_i^2 + s_j^2)/12 about its normal,
  // sigma A s_i^2/12 in its plane, moved by the parallel-axis theorem.
  double mass = 0;
  double inertia[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const double si = size[i], sj = size[j], sk = size[k];
    const double plate = sigma * si * sj;
    mass += 2 * plate;
    inertia[k] += 2 * plate * (si * si + sj * sj) / 12;
    inertia[i] += 2 * plate * (sj * sj / 12 + sk * sk / 4);
    inertia[j] += 2 * plate * (si * si / 12 + sk * sk / 4);
  }
  const auto hull = hullOf(box(size, 2, centre));
  const MassProperties m = MassModel().shell(*hull, thickness_m, rho).properties();
  Body expected{mass, centre, btVector3(btScalar(inertia[0]), btScalar(inertia[1]), btScalar(inertia[2]))};
  expectProperties(m, expected, kRel);
  EXPECT_NEAR(areaMoments(*hull).zeroth, 2 * (3 * 1 + 1 * 2 + 2 * 3), 22 * kExact);
}

TEST(MassProperties, BoxWithBallastInItsBottomHalfIsTwoBoxes) {
  const btVector3 size(4, 2, 1), centre(0, -0.5f, 0);
  const double rhoSolid = 300, rhoBallast = 2500;
  const auto hull = hullOf(box(size, 1, centre));
  const btVector3 half(4, 1, 1);
  const btVector3 up(0, 1, 0);
  const double cut_m = -0.5;  // the box's mid-height
  const Body top = boxBody(rhoSolid * 4, half, btVector3(0, 0, 0)),
             bottom = boxBody(rhoBallast * 4, half, btVector3(0, -1, 0));
  const MassProperties replaced =
      MassModel().solid(*hull, rhoSolid).ballastBelow(*hull, up, cut_m, rhoBallast).properties();
  expectProperties(replaced, combine(top, bottom), kRel);
  // Added on top of the solid: the bottom half weighs both densities.
  const Body both = boxBody((rhoSolid + rhoBallast) * 4, half, btVector3(0, -1, 0));
  const MassProperties added =
      MassModel().solid(*hull, rhoSolid).ballastBelow(*hull, up, cut_m, rhoBallast, RegionDensity::Adds).properties();
  expectProperties(added, combine(top, both), kRel);
}

TEST(MassProperties, VolumeBelowATiltedPlaneIsAPrism) {
  // The unit cube below x + y = 0: a prism on a right triangle of legs 1,
  // its centroid a third of the way from the right angle (-1/2, -1/2).
  const auto hull = hullOf(box(btVector3(1, 1, 1), 2));
  const Moments below = volumeMomentsBelow(*hull, btVector3(1, 1, 0), 0);
  EXPECT_NEAR(below.zeroth, 0.5, kExact);
  EXPECT_NEAR(below.first[0] / below.zeroth, -1.0 / 6, kExact);
  EXPECT_NEAR(below.first[1] / below.zeroth, -1.0 / 6, kExact);
  EXPECT_NEAR(below.first[2], 0, kExact);
  // The second moment about the origin: integral of x^2 over the prism
  // (x in [-1/2, 1/2], y from -1/2 to -x), x^2 (1/2 - x) integrated: 1/24.
  EXPECT_NEAR(below.second[0], 1.0 / 24, kExact);
  // Nothing below, everything below.
  EXPECT_EQ(volumeMomentsBelow(*hull, btVector3(0, 1, 0), -0.5).zeroth, 0);
  EXPECT_NEAR(volumeMomentsBelow(*hull, btVector3(0, 1, 0), 0.5).zeroth, 1, kExact);
}

TEST(MassProperties, PointMassesAddByTheParallelAxisTheorem) {
  const btVector3 size(2, 2, 2);
  const auto hull = hullOf(box(size, 1));
  const btVector3 engine(-0.5f, -0.75f, 0), crew(0.25f, 0.5f, 0.5f);
  const MassProperties m = MassModel().solid(*hull, kRho).pointMass(800, engine).pointMass(150, crew).properties();
  const Body expected = combine(combine(boxBody(kRho * 8, size, btVector3(0, 0, 0)), point(800, engine)),
                                point(150, crew));
  expectProperties(m, expected, kRel);
}

TEST(MassProperties, CompartmentsReplaceOrAddTheSolidsDensity) {
  const btVector3 size(4, 2, 2), inner(1, 1, 1), where(1, -0.5f, 0);
  const auto hull = hullOf(box(size, 1));
  const auto tank = hullOf(box(inner, 1, where));
  const Body solid = boxBody(kRho * 16, size, btVector3(0, 0, 0));
  // An empty tank (density 0) in the solid: the solid with a hole.
  const MassProperties hollow = MassModel().solid(*hull, kRho).compartment(*tank, 0).properties();
  expectProperties(hollow, combine(solid, boxBody(-kRho, inner, where)), kRel);
  // Fuel added to a shell-less model and, replacing, to the solid.
  const double fuel = 850;
  const MassProperties added =
      MassModel().solid(*hull, kRho).compartment(*tank, fuel, RegionDensity::Adds).properties();
  expectProperties(added, combine(solid, boxBody(fuel, inner, where)), kRel);
  MassModel model;
  model.solid(*hull, kRho).compartment(*tank, fuel);
  expectProperties(model.properties(), combine(solid, boxBody(fuel - kRho, inner, where)), kRel);
  // The tank emptied without integrating again.
  model.setDensity(1, 0);
  expectProperties(model.properties(), combine(solid, boxBody(-kRho, inner, where)), kRel);
}

TEST(MassProperties, PrincipalFrameOfATurnedOffsetBoxIsItsOwn) {
  const btVector3 size(1, 2, 4), centre(3, -1, 2);
  const btQuaternion turn(btVector3(1, 2, 3).normalized(), btScalar(0.4));
  Mesh mesh = box(size, 1);
  for (btVector3& v : mesh.vertices) v = quatRotate(turn, v) + centre;
  const MassProperties m = massProperties(*hullOf(mesh), kRho);
  const Body own = boxBody(kRho * 8, size, btVector3(0, 0, 0));
  const double tol = kTurned * double(own.inertia_kgm2[2][2]);
  const btMatrix3x3 axes(turn);
  EXPECT_NEAR(m.principalAxes.determinant(), 1, kTurned);
  for (int j = 0; j < 3; ++j) {
    // Each principal axis is one of the box's edges, with its moment.
    const btVector3 axis = m.principalAxes.getColumn(j);
    int edge = 0;
    for (int k = 1; k < 3; ++k)
      if (std::abs(axis.dot(axes.getColumn(k))) > std::abs(axis.dot(axes.getColumn(edge)))) edge = k;
    EXPECT_NEAR(std::abs(axis.dot(axes.getColumn(edge))), 1, kTurned) << "axis " << j;
    EXPECT_NEAR(m.principalInertia_kgm2[j], own.inertia_kgm2[edge][edge], tol) << "axis " << j;
  }
  // inertia = axes diag(moments) axes^T.
  const btMatrix3x3 rebuilt = m.principalAxes.scaled(m.principalInertia_kgm2) * m.principalAxes.transpose();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(rebuilt[r][c], m.inertia_kgm2[r][c], tol);
  expectNear(m.centreOfMass_m, centre, kTurned * 4);
}

TEST(MassProperties, HullAndMeshMovedIntoTheBodyFrameAreCentredAndPrincipal) {
  const btQuaternion turn(btVector3(0, 0, 1), btScalar(0.3));
  Mesh mesh = box(btVector3(6, 1, 2), 2);
  // A mesh drawn with its origin on the waterline, turned and offset.
  for (btVector3& v : mesh.vertices) v = quatRotate(turn, v) + btVector3(0.5f, 0.3f, -0.2f);
  const auto fileHull = hullOf(mesh);
  const MassProperties m = massProperties(*fileHull, kRho);
  const auto bodyHull = toBodyFrame(*fileHull, m.bodyToHull());
  const auto meshCopy = toBullet(mesh);
  const Hull fromMesh(*toBodyFrame(*meshCopy, m.bodyToHull()));
  for (const Hull* moved : {bodyHull.get(), &fromMesh}) {
    const MassProperties b = massProperties(*moved, kRho);
    expectNear(b.centreOfMass_m, btVector3(0, 0, 0), kTurned * 6);
    const double largest = b.principalInertia_kgm2[b.principalInertia_kgm2.maxAxis()];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        if (r != c) {
          EXPECT_NEAR(b.inertia_kgm2[r][c] / largest, 0, kTurned);
        }
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(b.principalInertia_kgm2[j], m.principalInertia_kgm2[j], kTurned * largest);
    EXPECT_NEAR(b.mass_kg, m.mass_kg, kTurned * m.mass_kg);
  }
}

TEST(MassProperties, JacobiDiagonalisesToRoundOff) {
  // Symmetric matrices with spread, close and equal eigenvalues: V diag V^T
  // rebuilds each to a few ulps of its norm, and V is orthonormal.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> entry(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    std::array<std::array<double, 3>, 3> a{};
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) a[i][j] = a[j][i] = entry(random) * (trial % 3 == 0 ? 1e6 : 1);
    if (trial % 5 == 0) a[0][1] = a[1][0] = a[0][2] = a[2][0] = 0;  // one eigenvector on an axis
    const detail::SymmetricEigen e = detail::symmetricEigen(a);
    double norm = 0;
    for (const auto& row : a)
      for (double v : row) norm = std::max(norm, std::abs(v));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double rebuilt = 0, dot = 0;
        for (int k = 0; k < 3; ++k) {
          rebuilt += e.vectors[i][k] * e.values[k] * e.vectors[j][k];
          dot += e.vectors[k][i] * e.vectors[k][j];
        }
        EXPECT_NEAR(rebuilt, a[i][j], 1e-14 * norm) << "trial " << trial;
        EXPECT_NEAR(dot, i == j ? 1 : 0, 1e-14) << "trial " << trial;
      }
  }
}

TEST(MassProperties, SymmetricBodiesGiveTheHullsAxesAndALonePointMassIsRefused) {
  // A sphere's moments are all equal (any axes are principal): the hull's
  // axes. A lone point mass has no inertia for Bullet to invert.
  const MassProperties sphere = massProperties(*hullOf(icosphere(1, 2)), kRho);
  EXPECT_NEAR(sphere.principalAxes.determinant(), 1, kTurned);
  for (int i = 0; i < 3; ++i) expectNear(sphere.principalAxes.getColumn(i), btMatrix3x3::getIdentity().getColumn(i), 0);
  EXPECT_THROW((void)MassModel().pointMass(5, btVector3(1, 2, 3)).properties(), std::invalid_argument);
}

/// Expects `f` to throw std::invalid_argument whose message contains `words`.
template <class F>
void expectRefused(F&& f, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one saying: " << words;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(MassProperties, BadInputIsRefusedWithAClearMessage) {
  const auto hull = hullOf(box(btVector3(1, 1, 1), 1));
  const double nan = std::nan(""), inf = INFINITY;
  expectRefused([&] { (void)massProperties(*hull, -1); },
                "massProperties: the density [kg/m^3] must be finite and > 0; got -1");
  expectRefused([&] { (void)massProperties(*hull, 0); }, "got 0");
  expectRefused([&] { (void)massProperties(*hull, nan); }, "got nan");
  expectRefused([&] { MassModel().solid(*hull, inf); }, "solid: the density");
  expectRefused([&] { MassModel().shell(*hull, 0, 1000); }, "shell: the thickness [m] must be finite and > 0; got 0");
  expectRefused([&] { MassModel().shell(*hull, -0.01, 1000); }, "got -0.01");
  expectRefused([&] { MassModel().shell(*hull, 0.01, -5); }, "shell: the density");
  expectRefused([&] { MassModel().compartment(*hull, -1); }, "compartment: the density");
  expectRefused([&] { MassModel().pointMass(-3, btVector3(0, 0, 0)); }, "pointMass: the mass [kg]");
  expectRefused([&] { MassModel().pointMass(3, btVector3(0, btScalar(nan), 0)); },
                "pointMass: the position is not finite");
  expectRefused([&] { MassModel().ballastBelow(*hull, btVector3(0, 0, 0), 0, 1000); },
                "up must be a finite, non-zero vector");
  expectRefused([&] { MassModel().ballastBelow(*hull, btVector3(0, 1, 0), nan, 1000); }, "the height is not finite");
  expectRefused([&] { MassModel().ballastBelow(*hull, btVector3(0, 1, 0), -2, 1000); },
                "no volume of the hull lies below height -2 m");
  expectRefused([&] { MassModel().solid(*hull, 1).solid(*hull, 2); }, "the model has a solid already");
  expectRefused([&] { MassModel().solid(*hull, 1).setDensity(3, 1); }, "setDensity: part 3 of 1");
  // Empty results: nothing, nothing but empty tanks, or holes heavier than the solid.
  expectRefused([&] { (void)MassModel().properties(); }, "the mass is 0 kg");
  expectRefused([&] { (void)MassModel().compartment(*hull, 0).properties(); }, "the mass is 0 kg");
  const auto big = hullOf(box(btVector3(2, 2, 2), 1));
  expectRefused([&] { (void)MassModel().solid(*hull, 1000).compartment(*big, 0).properties(); }, "must be positive");
  Moments infinite;
  infinite.zeroth = 1;
  infinite.first[1] = inf;
  expectRefused([&] { (void)massProperties(infinite); }, "every moment finite");
  const std::vector<btVector3> corners{btVector3(0, 0, 0)};
  const std::vector<Hull::Triangle> bad{{0, 0, 5}};
  expectRefused([&] { (void)volumeMoments(corners, bad); }, "triangle 0 refers to vertex 5 of 1");
}

}  // namespace
}  // namespace keel::test
