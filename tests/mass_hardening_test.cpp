// What an outside audit threw at the mass properties: densities and
// positions no boat has, a waterplane far from the hull, a mesh moved by a
// NaN transform, and bodies whose principal moments are equal, where any
// axes are principal and the hull's own must be kept (docs/mass.md, "Bounds"
// and "Equal moments").
#include "mass_test_support.hpp"

#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

/// Expects `f` to throw std::invalid_argument whose message contains each of `words`.
template <class F>
void expectRefused(F&& f, std::initializer_list<const char*> words) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one saying: " << *words.begin();
  } catch (const std::invalid_argument& e) {
    for (const char* w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
  }
}

TEST(MassHardening, DensitiesNoMaterialHasAreRefusedNotWeighedInfiniteOrZero) {
  // 4 x 1.5 x 2 m: 12 m^3. 1e150 kg/m^3 weighs 1.2e151 kg (infinite in
  // float); 1e-300 weighs 1.2e-299 kg (0 in float: a static body in Bullet).
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 1));
  expectRefused([&] { (void)massProperties(*hull, 1e150); }, {"the mass is 1.2e+151 kg", "9.2e+18"});
  expectRefused([&] { (void)massProperties(*hull, 1e-300); }, {"the mass is 1.2e-299 kg", "1.1e-19"});
  expectRefused([&] { MassModel().solid(*hull, 1e150); }, {"solid: the density [kg/m^3] is 1e+150", "1.2e+151 kg"});
  expectRefused([&] { MassModel().compartment(*hull, 1e150); }, {"compartment", "1.2e+151 kg"});
  expectRefused([&] { (void)MassModel().solid(*hull, 1e-300).properties(); }, {"the mass is 1.2e-299 kg"});
  MassModel tank;
  tank.solid(*hull, 500);
  expectRefused([&] { tank.setDensity(0, 1e150); }, {"setDensity: part 0's density is 1e+150", "1.2e+151 kg"});
  // A shell 1e300 m thick, and one thin enough for the hull but of a
  // density that makes it weigh more than the bound.
  expectRefused([&] { MassModel().shell(*hull, 1e300, 1800); }, {"shell: the thickness [m] 1e+300"});
  expectRefused([&] { MassModel().shell(*hull, 0.01, 1e300); }, {"shell", "kg"});
}

TEST(MassHardening, AMassFarFromTheOriginOrOfNoExtentHasNoInertiaAndIsRefused) {
  // A point mass at 1e30 m: its moments about the origin are 5e60 kg m^2,
  // and the inertia about its centre is their rounding (infinite in float).
  expectRefused([&] { (void)MassModel().pointMass(5, btVector3(btScalar(1e30), 0, 0)).properties(); },
                {"principal moment", "1e+30"});
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 1));
  expectRefused([&] { (void)MassModel().solid(*hull, 500).pointMass(5, btVector3(btScalar(1e30), 0, 0)).properties(); },
                {"principal moment", "m from the hull frame's origin"});
  // A lone point mass turns about nothing: Bullet would read its rounding as
  // an inertia (or lock it).
  expectRefused([&] { (void)MassModel().pointMass(5, btVector3(1, 2, 3)).properties(); }, {"principal moment"});
  // The same boat near the origin is fine.
  EXPECT_NO_THROW((void)MassModel().solid(*hull, 500).pointMass(5, btVector3(3, 0, 0)).properties());
  // A 1 m cube: its moments m/6 are 1/(6 D^2) of the trace about an origin
  // D away, resolved (above 1e-11 of it) up to D = 129 km (docs/mass.md, "Bounds").
  EXPECT_NO_THROW((void)massProperties(*hullOf(box(btVector3(1, 1, 1), 1, btVector3(1.2e5f, 0, 0))), 500));
  expectRefused([&] { (void)massProperties(*hullOf(box(btVector3(1, 1, 1), 1, btVector3(1.4e5f, 0, 0))), 500); },
                {"principal moment", "140000 m from the hull frame's origin"});
}

TEST(MassHardening, APlaneFarFromTheHullCutsAllOfItOrNothing) {
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 2, btVector3(1, 0.25f, -0.5f)));
  const Moments whole = volumeMoments(*hull);
  const btVector3 up = btVector3(0.1f, 1, 0.2f);
  for (double far : {1e6, 1e16, 1e300}) {
    const Moments below = volumeMomentsBelow(*hull, up, far);
    EXPECT_EQ(below.zeroth, whole.zeroth) << far;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(below.first[i], whole.first[i]) << far;
    for (int i = 0; i < 6; ++i) EXPECT_EQ(below.second[i], whole.second[i]) << far;
    const Moments none = volumeMomentsBelow(*hull, up, -far);
    EXPECT_EQ(none.zeroth, 0) << far;
    EXPECT_EQ(none.second[0], 0) << far;
  }
  // Ballast filling the hull, and the whole hull under water: 12 m^3.
  const MassProperties ballast = MassModel().ballastBelow(*hull, btVector3(0, 1, 0), 1e16, 1000).properties();
  EXPECT_NEAR(ballast.mass_kg, 12000, kRel * 12000);
  EXPECT_NEAR(massForDraft_kg(*hull, 1e16, 1025), 1025 * 12, kExact * 1025 * 12);
}

TEST(MassHardening, AMeshMovedByANonFiniteTransformIsRefused) {
  const Mesh mesh = box(btVector3(4, 1.5f, 2), 1);
  const auto bullet = toBullet(mesh);
  const auto hull = hullOf(mesh);
  const auto nan = std::numeric_limits<btScalar>::quiet_NaN();
  const btTransform turnedByNaN(btQuaternion(nan, 0, 0, 1), btVector3(0, 0, 0));
  const btTransform movedToInfinity(btQuaternion::getIdentity(),
                                    btVector3(0, std::numeric_limits<btScalar>::infinity(), 0));
  expectRefused([&] { (void)toBodyFrame(*bullet, turnedByNaN); }, {"toBodyFrame: bodyToHull's basis", "nan"});
  expectRefused([&] { (void)toBodyFrame(*bullet, movedToInfinity); }, {"toBodyFrame: bodyToHull's origin", "inf"});
  expectRefused([&] { (void)toBodyFrame(*hull, turnedByNaN); }, {"toBodyFrame: bodyToHull's basis"});
  // A mesh with a vertex no transform can move.
  btTriangleMesh broken;
  broken.addTriangle(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, nan, 1));
  expectRefused([&] { (void)toBodyFrame(broken, btTransform::getIdentity()); }, {"toBodyFrame: triangle 0"});
}

// btTransform::inverse() transposes the basis: a scaled or mirrored one
// would move the mesh somewhere else without a word. A composed rotation
// (1,000 small turns in float) is still a rotation.
TEST(MassHardening, AMeshMovedByABasisThatIsNoRotationIsRefused) {
  const Mesh mesh = box(btVector3(4, 1.5f, 2), 1);
  const auto bullet = toBullet(mesh);
  const auto hull = hullOf(mesh);
  const btTransform scaled(btMatrix3x3(2, 0, 0, 0, 2, 0, 0, 0, 2), btVector3(0, 0, 0));
  const btTransform mirrored(btMatrix3x3(-1, 0, 0, 0, 1, 0, 0, 0, 1), btVector3(0, 0, 0));
  expectRefused([&] { (void)toBodyFrame(*bullet, scaled); }, {"toBodyFrame: bodyToHull's basis is no rotation"});
  expectRefused([&] { (void)toBodyFrame(*hull, mirrored); }, {"determinant -1"});
  btTransform turned = btTransform::getIdentity();
  const btTransform step(btQuaternion(btVector3(1, 2, 3).normalized(), btScalar(0.01)), btVector3(0.1f, 0, 0));
  for (int k = 0; k < 1000; ++k) turned = turned * step;
  const auto moved = toBodyFrame(*hull, turned);
  const btVector3 back = turned * moved->vertices()[0];
  EXPECT_LT((back - hull->vertices()[0]).length(), 1e-3f);
}

// A water density whose displaced mass overflows is refused, naming it.
TEST(MassHardening, AWaterDensityThatDisplacesNoFiniteMassIsRefused) {
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 1));
  expectRefused([&] { (void)massForDraft_kg(*hull, 0.5, 1e308); }, {"massForDraft_kg: the water density", "1e+308"});
  EXPECT_DOUBLE_EQ(massForDraft_kg(*hull, 0.5, 1025), 1025 * 4 * 2 * 0.5);
}

/// A regular prism of `sides` sides: circumradius r, height h along y,
/// turned by `plan_rad` about y and centred at `centre`; caps fanned from
/// their centres.
Mesh prism(int sides, double r, double h, double plan_rad, const btVector3& centre) {
  Mesh m;
  for (int level = 0; level < 2; ++level)
    for (int k = 0; k < sides; ++k) {
      const double a = plan_rad + 2 * std::numbers::pi * k / sides;
      m.vertices.push_back(
          centre + btVector3(btScalar(r * std::cos(a)), btScalar(level ? h / 2 : -h / 2), btScalar(r * std::sin(a))));
    }
  const auto n = std::uint32_t(sides), bottom = 2 * n, top = 2 * n + 1;
  m.vertices.push_back(centre + btVector3(0, btScalar(-h / 2), 0));
  m.vertices.push_back(centre + btVector3(0, btScalar(h / 2), 0));
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t next = (k + 1) % n;
    // Angles run from x towards z, a turn about -y: wound so, the sides face out.
    m.triangles.push_back({k, n + k, n + next});
    m.triangles.push_back({k, n + next, next});
    m.triangles.push_back({bottom, k, next});
    m.triangles.push_back({top, n + next, n + k});
  }
  return m;
}

/// `axes` is the identity to `tol`.
void expectHullAxes(const btMatrix3x3& axes, double tol, const std::string& what) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(axes[r][c], r == c ? 1 : 0, tol) << what << " [" << r << "][" << c << "]";
}

TEST(MassHardening, EqualPrincipalMomentsKeepTheHullsAxes) {
  // An octagonal prism, a square box turned in plan, a cube, a sphere: every
  // horizontal axis (every axis) is principal, and the hull's are returned.
  const double tol = kDouble ? 1e-12 : 1e-6;
  for (double plan_rad : {0.0, 0.1, 0.3927, 0.7, 1.3}) {
    for (const btVector3& centre : {btVector3(0, 0, 0), btVector3(3, -1, 2.5f)}) {
      const std::string where = "turned " + std::to_string(plan_rad) + " rad, at x " + std::to_string(centre.x());
      const MassProperties octagon = massProperties(*hullOf(prism(8, 1.5, 4, plan_rad, centre)), 500);
      expectHullAxes(octagon.principalAxes, tol, "octagon " + where);
      EXPECT_NEAR(octagon.principalInertia_kgm2.x(), octagon.principalInertia_kgm2.z(),
                  kRel * octagon.principalInertia_kgm2.x());
      Mesh square = box(btVector3(2, 1, 2), 2);
      const btQuaternion turn(btVector3(0, 1, 0), btScalar(plan_rad));
      for (btVector3& v : square.vertices) v = quatRotate(turn, v) + centre;
      const MassProperties turned = massProperties(*hullOf(square), 500);
      expectHullAxes(turned.principalAxes, tol, "square " + where);
      const Body own = boxBody(500 * 4, btVector3(2, 1, 2), centre);
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(turned.principalInertia_kgm2[i], own.inertia_kgm2[i][i], kTurned * own.inertia_kgm2[1][1]) << where;
    }
  }
  expectHullAxes(massProperties(*hullOf(box(btVector3(2, 2, 2), 3, btVector3(1, 2, 3))), 500).principalAxes, tol,
                 "cube");
  expectHullAxes(massProperties(*hullOf(icosphere(1, 2)), 500).principalAxes, tol, "sphere");
}

TEST(MassHardening, DistinctPrincipalMomentsKeepTheirEigenvectors) {
  // A boat hull turned a little and off the origin: three distinct moments,
  // whose axes are the inertia's eigenvectors to double's rounding (the
  // hull's axes would leave products of inertia).
  Mesh mesh = boatHull(8, 2.5f, 1.2f);
  const btQuaternion turn(btVector3(1, 2, 3).normalized(), btScalar(0.2));
  for (btVector3& v : mesh.vertices) v = quatRotate(turn, v) + btVector3(1, -0.5f, 2);
  const MassProperties m = massProperties(*hullOf(mesh), 500);
  const double largest = m.principalInertia_kgm2[m.principalInertia_kgm2.maxAxis()];
  for (int j = 0; j < 3; ++j) {
    const btVector3 axis = m.principalAxes.getColumn(j);
    const btVector3 residual = m.inertia_kgm2 * axis - m.principalInertia_kgm2[j] * axis;
    EXPECT_LT(residual.length(), (kDouble ? 1e-13 : 1e-6) * largest) << "axis " << j;
    EXPECT_LT(std::abs(axis[j]), 1 - 1e-4) << "axis " << j << " is the hull's";
  }
}

}  // namespace
}  // namespace keel::test
