#pragma once
// The pressure stage's kernel (substep/pressure.cpp): the pressure integral over the
// wet pieces (docs/model.md, "The pressure integral (exact centre of
// pressure)" and "The SIMD path").

#include <keel/hydrostatics.hpp>

#include "kernels/buffers.hpp"

#include <LinearMath/btMatrix3x3.h>

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// Sums of the pressure integral (docs/model.md, "The pressure integral"), in
/// the axes of the pieces (body axes for pressureSums).
struct PressureSums {
  double force[3] = {0, 0, 0};       ///< sum S (sum d) [m^3]; sum S (sum e) with pressure heads e
  double depthForce[3] = {0, 0, 0};  ///< sum S (sum d) [m^3], the static head's force, for the volume
  double moment[3] = {0, 0, 0};      ///< sum m x S, m = sum d_i r_i + (sum d_i)(sum r_i) [m^4] (heads e_i: the same)
  double buoyancyMoment[3] = {0, 0, 0};  ///< sum (S . up) m [m^4]
  double area = 0;                       ///< sum A [m^2]
  double depthIntegral = 0;              ///< sum (S . up)(sum d^2 + (sum d)^2) [m^4]
};

/// The pressure integral's sums over `count` streams (one set of sums: the
/// vector lanes are added up once), `up` in body axes. The force and torque
/// come from the streams' pressure heads e0... when the first stream has them
/// (every stream must then), else from the depths.
[[nodiscard]] PressureSums pressureSums(const PieceStream* streams, std::size_t count, const btScalar up[3]);

/// The hydrostatic result of the pressure sums (its last step) into `result`: force, torque, volume, wetted area,
/// centre of buoyancy and depth integral; `up` is the up axis in the frame of the sums, `toResult` turns a vector
/// of that frame to the result's. (Written in place: a returned copy's narrow stores and wide loads would stall.)
void pressureResult(const PressureSums& sums, btScalar density_kgpm3, btScalar gravity_mps2, const btVector3& up,
                    const btMatrix3x3& toResult, HydrostaticResult& result);

}  // namespace keel::KEEL_ABI::detail
