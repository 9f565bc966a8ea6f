#pragma once
// Air resistance on the hull's emerged parts (docs/model.md, section 2, the
// "air" term), and the extent of points along a direction, which gives skin
// friction its wetted length (docs/model.md, section 2, the "viscous" term).

#include "kernels/flow.hpp"
#include "kernels/heights.hpp"
#include "kernels/hull_soa.hpp"

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// Air's per-boat factors (body axes).
struct AirParameters {
  btScalar airVelocity_mps[3];        ///< centre of mass relative to the air [m/s]
  btScalar angularVelocity_radps[3];  ///< [rad/s]
  btScalar half = 0;                  ///< 1/2 rho_air C_air [kg/m^3]
};

/// Air resistance on the emerged fraction of every hull triangle (`emerged`,
/// in the kernels' order), body axes.
[[nodiscard]] BodyForce airSums(const HullSoA& hull, const btScalar* emerged, const AirParameters& p);

/// The least and greatest p . direction over the points (x, y, z)[0..count)
/// (arrays readable up to padded(count)); {BT_LARGE_FLOAT, -BT_LARGE_FLOAT}
/// for none.
[[nodiscard]] Extent extentAlong(const btScalar* x, const btScalar* y, const btScalar* z, std::size_t count,
                                 const btScalar direction[3]);

}  // namespace keel::KEEL_ABI::detail
