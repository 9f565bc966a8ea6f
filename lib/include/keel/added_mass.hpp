#pragma once
/// @file added_mass.hpp
/// The water's inertia (docs/model.md, "Added mass"): accelerating a body
/// accelerates the water around it, a force `-A a`. keel::WaterAction
/// applies it implicitly when HydrodynamicSettings::addedMass is on; these
/// queries give the matrix it uses, to size a controller or check a design.

#include <keel/config.hpp>
#include <keel/hull.hpp>
#include <keel/hydrostatics.hpp>

#include <LinearMath/btTransform.h>

#include <array>
#include <cstddef>

namespace keel::KEEL_ABI {

/// A 6 x 6 added-mass matrix about the centre of mass, in the hull's (body)
/// axes. Rows and columns are surge, sway, heave (translations along x, y,
/// z) then roll, pitch, yaw (rotations about x, y, z): the translational
/// block in kg, the rotational block in kg m^2, the coupling blocks in kg m.
/// Symmetric and positive semi-definite; zero when the hull is dry.
struct AddedMass {
  /// Row-major: element (row, column) is `matrix[6 * row + column]`.
  std::array<double, 36> matrix{};

  /// Element (row, column), each in [0, 6).
  [[nodiscard]] double operator()(std::size_t row, std::size_t column) const { return matrix[6 * row + column]; }
  /// Every element zero (a dry hull).
  [[nodiscard]] bool isZero() const;
  /// Every element equal.
  [[nodiscard]] bool operator==(const AddedMass&) const = default;
};

/// Lamb's added mass of a solid ellipsoid with semi-axes `a_m`, `b_m`,
/// `c_m` along x, y, z [m], deep in an unbounded fluid of density
/// `density_kgpm3` (Lamb, "Hydrodynamics", 1932, §114 and §373), about its
/// centre: diagonal. Throws std::invalid_argument for a semi-axis or a
/// density that is not positive and finite.
[[nodiscard]] AddedMass ellipsoidAddedMass(double a_m, double b_m, double c_m, double density_kgpm3);

/// The added mass keel::WaterAction gives `hull` whose centre of mass has
/// the world transform `centreOfMass`, on `surface` (sampled at every
/// vertex, at `query.time_s`, with `query`'s gravity and density): the same
/// code the substep runs. Throws std::invalid_argument as
/// hydrostaticsAtPose() does.
[[nodiscard]] AddedMass addedMassAtPose(const Hull& hull, const btTransform& centreOfMass, const WaterSurface& surface,
                                        const PoseQuery& query = {});

}  // namespace keel::KEEL_ABI
