// Kerner's hydrodynamic terms: their settings, and the friction line the
// flow stage (substep/flow.cpp) uses.
#include <keel/hydrodynamics.hpp>

#include "finite.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace {

bool finiteNonNegative(btScalar x) { return std::isfinite(x) && x >= 0; }

void require(bool ok, const char* field, btScalar value) {
  if (!ok)
    throw std::invalid_argument(std::string("keel::HydrodynamicSettings: bad ") + field + " = " +
                                std::to_string(value));
}

}  // namespace

HydrodynamicSettings HydrodynamicSettings::none() {
  HydrodynamicSettings s;
  s.viscous = s.pressureDrag = s.slamming = s.airResistance = s.damping = s.hullLift = s.addedMass = false;
  return s;
}

void HydrodynamicSettings::validate() const {
  require(std::isfinite(kinematicViscosity_m2ps) && kinematicViscosity_m2ps > 0, "kinematicViscosity_m2ps",
          kinematicViscosity_m2ps);
  require(std::isfinite(referenceSpeed_mps) && referenceSpeed_mps > 0, "referenceSpeed_mps", referenceSpeed_mps);
  require(finiteNonNegative(pressureLinear_Pa), "pressureLinear_Pa", pressureLinear_Pa);
  require(finiteNonNegative(pressureQuadratic_Pa), "pressureQuadratic_Pa", pressureQuadratic_Pa);
  require(finiteNonNegative(suctionLinear_Pa), "suctionLinear_Pa", suctionLinear_Pa);
  require(finiteNonNegative(suctionQuadratic_Pa), "suctionQuadratic_Pa", suctionQuadratic_Pa);
  require(pressureFalloff > 0 && pressureFalloff <= 1, "pressureFalloff", pressureFalloff);
  require(suctionFalloff > 0 && suctionFalloff <= 1, "suctionFalloff", suctionFalloff);
  require(std::isfinite(slammingCutoff_mps2) && slammingCutoff_mps2 > 0, "slammingCutoff_mps2", slammingCutoff_mps2);
  require(std::isfinite(slammingPower) && slammingPower > 0, "slammingPower", slammingPower);
  require(finiteNonNegative(airDensity_kgpm3), "airDensity_kgpm3", airDensity_kgpm3);
  require(finiteNonNegative(airDragCoefficient), "airDragCoefficient", airDragCoefficient);
  require(detail::isFinite(wind_mps), "wind_mps", wind_mps.length());
  require(finiteNonNegative(linearDamping_Nspm), "linearDamping_Nspm", linearDamping_Nspm);
  require(finiteNonNegative(angularDamping_Nmsprad), "angularDamping_Nmsprad", angularDamping_Nmsprad);
  require(finiteNonNegative(hullLiftCoefficient), "hullLiftCoefficient", hullLiftCoefficient);
}

ForceTorque HydrodynamicForces::total() const {
  ForceTorque sum = viscous;
  sum += pressureDrag;
  sum += slamming;
  sum += air;
  sum += damping;
  sum += hullLift;
  return sum;
}

btScalar ittc1957FrictionCoefficient(btScalar reynoldsNumber) {
  // The line diverges at Rn = 100 and is meant for turbulent flow; hold it
  // at its Rn = 1e5 value below that.
  const double rn = std::max(double(reynoldsNumber), 1e5);
  const double d = std::log10(rn) - 2.0;
  return btScalar(0.075 / (d * d));
}

}  // namespace keel::KEEL_ABI
