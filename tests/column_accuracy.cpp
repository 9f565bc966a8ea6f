// The accuracy table of docs/columns.md: the column model at two cell sizes
// against the exact triangle model and the analytic values, for a box, a
// Wigley hull and a sphere, at several drafts and heels; and the volume of a
// bounding box per part (the approximation the Zephyr author rejected).
// Run: build/float/tests/keel_column_accuracy [CELLS], CELLS the coarse
// columns' ColumnSettings::targetColumns (330, the default; 64 is the
// far-boat preset's, kFarBoatColumnCells).
#include "test_hulls.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kRho = 1025;

struct Case {
  std::string name;
  std::shared_ptr<const Hull> hull;
  double keel_m;  ///< the keel's height in the body frame [m]
  std::vector<double> drafts_m;
  /// Analytic displaced volume upright at a draft, NaN where there is none.
  double (*analytic)(double draft);
};

/// Body transform with the keel at depth `draft` below the water, heeled
/// `heel` about the forward axis about the point on the centreline at the
/// waterline.
btTransform pose(const Case& c, double draft, double heel) {
  const btQuaternion q(btVector3(1, 0, 0), btScalar(heel));
  const btVector3 waterlineCentre(0, btScalar(c.keel_m + draft), 0);
  return btTransform(q, -quatRotate(q, waterlineCentre));
}

/// The bounding box of the hull's one part, its volume below the water
/// upright at `draft`.
double boxVolume(const Hull& hull, double draft) {
  const btVector3 size = hull.boundsMax() - hull.boundsMin();
  return double(size.x()) * double(size.z()) * std::min(draft, double(size.y()));
}

void printCase(const Case& c, std::size_t cells) {
  const ColumnHull coarse(*c.hull, ColumnSettings{0, cells}), fine(*c.hull, ColumnSettings{0, 4 * 330});
  for (double draft : c.drafts_m)
    for (double degrees : {0.0, 10.0, 20.0, 30.0}) {
      const btTransform at = pose(c, draft, degrees * kPi / 180);
      const HydrostaticResult tri = hydrostaticsAtPose(*c.hull, at, LevelWater()).pressure;
      const HydrostaticResult col = hydrostaticsAtPose(*c.hull, coarse, at, LevelWater()).pressure;
      const HydrostaticResult colFine = hydrostaticsAtPose(*c.hull, fine, at, LevelWater()).pressure;
      const double v = double(tri.submergedVolume_m3);
      auto volumeError = [&](const HydrostaticResult& r) { return 100 * (double(r.submergedVolume_m3) / v - 1); };
      // The righting arm GZ = M / (rho g V) [m] of the triangles, and the
      // columns' error in it [mm] (a sphere's is zero by symmetry).
      const double weight = kRho * double(kG) * v;
      const double gz = -double(tri.torque_Nm.x()) / weight;
      auto armError = [&](const HydrostaticResult& r) { return 1e3 * (-double(r.torque_Nm.x()) / weight - gz); };
      const double analytic = degrees == 0 ? c.analytic(draft) : NAN;
      char analyticText[64] = "", boxText[32] = "", arm[3][32] = {"", "", ""};
      if (std::isfinite(analytic))
        std::snprintf(analyticText, sizeof analyticText, "%.4f (%+.4f %%)", analytic, 100 * (v / analytic - 1));
      if (degrees == 0) std::snprintf(boxText, sizeof boxText, "%+.1f %%", 100 * (boxVolume(*c.hull, draft) / v - 1));
      if (degrees != 0) {
        std::snprintf(arm[0], sizeof arm[0], "%.4f", gz);
        std::snprintf(arm[1], sizeof arm[1], "%+.2f", armError(col));
        std::snprintf(arm[2], sizeof arm[2], "%+.2f", armError(colFine));
      }
      std::printf("| %s | %.3f | %2.0f | %.4f | %s | %+.3f %% | %+.3f %% | %s | %s | %s | %s |\n", c.name.c_str(),
                  draft, degrees, v, analyticText, volumeError(col), volumeError(colFine), arm[0], arm[1], arm[2],
                  boxText);
    }
  std::printf("| %s: columns | | | | | %zu (cell %.3f m) | %zu (cell %.3f m) | | | | |\n", c.name.c_str(),
              coarse.columns().size(), double(coarse.cellSize_m()), fine.columns().size(), double(fine.cellSize_m()));
}

}  // namespace
}  // namespace keel::test

int main(int argc, char** argv) {
  using namespace keel::test;
  const long cells = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 330;
  if (cells < 1) {
    std::fprintf(stderr, "usage: %s [CELLS >= 1]\n", argv[0]);
    return 2;
  }
  const double L = 10, B = 1, T = 0.625, R = 1;
  std::vector<Case> cases;
  cases.push_back({"box 6 x 2 x 2.5 m", hullOf(box(btVector3(6, 2, 2.5f), 4)), -1, {0.5, 1.0, 1.5}, [](double d) {
                     return 6 * 2.5 * d;
                   }});
  cases.push_back({"Wigley 10 x 1 x 0.625 m",
                   hullOf(wigley(btScalar(L), btScalar(B), btScalar(T), btScalar(0.375), 60, 16)),
                   -0.625,
                   {0.3125, 0.625},
                   [](double d) { return d == 0.625 ? 4.0 / 9 * 10 * 1 * 0.625 : NAN; }});
  cases.push_back({"sphere R 1 m", hullOf(icosphere(btScalar(R), 4)), -1, {0.5, 1.0, 1.5}, [](double h) {
                     return keel::test::kPi * h * h * (3 * 1 - h) / 3;
                   }});
  std::printf(
      "| hull | draft [m] | heel [deg] | displaced volume, triangles [m^3] | analytic [m^3] (triangles' error) "
      "| columns: volume error | fine columns: volume error | GZ, triangles [m] "
      "| columns: GZ error [mm] | fine columns: GZ error [mm] | bounding box: volume error |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Case& c : cases) printCase(c, std::size_t(cells));
  for (const Case& c : cases) {
    const btVector3 size = c.hull->boundsMax() - c.hull->boundsMin();
    std::printf("%s: bounding box %.4f m^3, hull %.4f m^3: the box overestimates by %.1f %%\n", c.name.c_str(),
                double(size.x() * size.y() * size.z()), double(c.hull->volume_m3()),
                100 * (double(size.x() * size.y() * size.z()) / double(c.hull->volume_m3()) - 1));
  }
}
