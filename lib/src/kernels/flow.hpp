#pragma once
// The flow and slamming stages' kernels (substep/flow.cpp, slamming.cpp): skin friction, pressure drag and
// suction, and slamming over the wet pieces (docs/model.md, "Hydrodynamics
// (Kerner part 2)" and "The SIMD path"). Everything in body axes.

#include "kernels/buffers.hpp"

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// A force and torque sum in body axes.
struct BodyForce {
  double force[3] = {0, 0, 0};   ///< [N] (or the unit of the sum it holds)
  double torque[3] = {0, 0, 0};  ///< about the centre of mass [N m] (likewise)
  BodyForce& operator+=(const BodyForce& o);
};

/// Slamming's per-boat factors.
struct SlammingParameters {
  btScalar stopFactor = 0;     ///< 2 m / (S dt) [kg/(m^2 s)]
  btScalar inverseCutoff = 0;  ///< 1 / Gamma_max [s^2/m]
  btScalar power = 2;          ///< p
};

/// What flowSums needs besides the pieces (body axes).
struct FlowParameters {
  btScalar linearVelocity_mps[3];     ///< of the centre of mass [m/s]
  btScalar angularVelocity_radps[3];  ///< [rad/s]
  /// The water velocity [m/s] of every piece when `waterPerPiece` is false
  /// (the stream's ux, uy, uz are then not read).
  bool waterPerPiece = true;
  btScalar water_mps[3] = {0, 0, 0};
  btScalar inverseDt_ps = 0;  ///< 1 / dt [1/s], for slamming (FlowStream::previousRate)
  SlammingParameters slamming;
  bool viscous = false, pressureDrag = false;
  btScalar inverseReferenceSpeed_spm = 1;                                                     ///< 1 / vr [s/m]
  btScalar pressureLinear_Pa = 0, pressureQuadratic_Pa = 0, pressureFalloff = btScalar(0.5);  ///< [Pa], [Pa], f_P
  btScalar suctionLinear_Pa = 0, suctionQuadratic_Pa = 0, suctionFalloff = btScalar(0.5);     ///< [Pa], [Pa], f_S
};

/// One stream of pieces for flowSums, and where its per-piece results go.
struct FlowStream {
  PieceStream pieces;
  PieceFlowOut out;
  /// Slamming in the same pass, for whole triangles only (a piece's own
  /// swept rate is then its triangle's): each one's swept rate at the last
  /// substep [m^3/s], or null for none.
  const btScalar* previousRate = nullptr;
};

/// What flowSums returns: skin friction without its factor 1/2 rho Cf (Cf
/// needs the mean water velocity, which is one of these sums), pressure drag,
/// and the area-weighted water velocity.
struct FlowSums {
  BodyForce viscousPerHalfRhoCf;    ///< sum -A |v|^2 v_t / |v_t| and its moment [m^4/s^2, m^5/s^2]
  BodyForce pressureDrag;           ///< [N], [N m]
  BodyForce slamming;               ///< of the streams with previousRate set [N], [N m]
  double waterArea[3] = {0, 0, 0};  ///< sum A u [m^3/s]
  double area = 0;                  ///< sum A [m^2]
};

/// Flow over every piece of `count` streams: relative velocity, cos theta
/// and swept rate into each stream's `out`; skin friction, pressure drag and
/// suction (and slamming, see FlowStream::previousRate) summed.
[[nodiscard]] FlowSums flowSums(const FlowStream* streams, std::size_t count, const FlowParameters& p);

/// Slamming of every piece of positive weight, from flowSums' relative
/// velocities and cos theta (`flow`) and each piece's `gamma` [m/s^2].
[[nodiscard]] BodyForce slammingSums(const PieceStream& s, const PieceFlowOut& flow, const btScalar* gamma,
                                     const SlammingParameters& p);

}  // namespace keel::KEEL_ABI::detail
