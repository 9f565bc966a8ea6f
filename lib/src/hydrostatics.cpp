#include <keel/hydrostatics.hpp>

#include "hull_kernel.hpp"


namespace keel {

namespace detail {

HydrostaticResult pressureResult(const PressureSums& sums, btScalar density_kgpm3, btScalar gravity_mps2,
                                 const btVector3& up) {
  const double rhoG = double(density_kgpm3) * double(gravity_mps2);
  HydrostaticResult result;
  result.force_N = btVector3(btScalar(-rhoG * sums.force[0] / 3), btScalar(-rhoG * sums.force[1] / 3),
                             btScalar(-rhoG * sums.force[2] / 3));
  result.torque_Nm = btVector3(btScalar(-rhoG * sums.moment[0] / 12), btScalar(-rhoG * sums.moment[1] / 12),
                               btScalar(-rhoG * sums.moment[2] / 12));
  // V = F . up / (rho g) = -sum (S . up)(sum d) / 3.
  const double volume = -(sums.force[0] * up.x() + sums.force[1] * up.y() + sums.force[2] * up.z()) / 3;
  result.submergedVolume_m3 = btScalar(volume);
  result.wettedArea_m2 = btScalar(sums.area);
  // Divergence theorem with grad d = -up (flat water), the waterplane
  // contributing nothing because d = 0 there:
  //   V B = up int_V d dV - sum (S . up) int d r dA / A,
  //   int_V d dV = -sum (S . up) int d^2 dA / (2 A).
  const double depthVolume = -sums.depthIntegral / 24;
  result.depthIntegral_m4 = btScalar(depthVolume);
  if (volume > 0) {
    for (int k = 0; k < 3; ++k)
      result.centreOfBuoyancy_m[k] = btScalar((double(up[k]) * depthVolume - sums.buoyancyMoment[k] / 12) / volume);
  }
  return result;
}

}  // namespace detail

}  // namespace keel
