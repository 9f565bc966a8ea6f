#pragma once
/// @file mass_properties.hpp
/// Mass, centre of mass and inertia of a boat from what it is made of
/// (docs/mass.md): a solid, a shell, ballast, compartments and point masses,
/// exact for polyhedra; the principal frame Bullet wants and a helper that
/// moves a hull or mesh into it; the displacement at a draft, and the draft
/// for a mass.

#include <keel/attitude.hpp>
#include <keel/config.hpp>
#include <keel/hull.hpp>
#include <keel/volume_moments.hpp>

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

class btStridingMeshInterface;
class btTriangleMesh;

namespace keel::KEEL_ABI {

/// What a rigid body of some mass distribution needs, in the frame its
/// geometry was given in (the "hull frame", e.g. a mesh file's).
struct MassProperties {
  btScalar mass_kg = 0;                      ///< [kg]
  btVector3 centreOfMass_m{0, 0, 0};         ///< hull frame [m]
  btMatrix3x3 inertia_kgm2;                  ///< about the centre of mass, hull axes [kg m^2]
  btVector3 principalInertia_kgm2{0, 0, 0};  ///< btRigidBody's local inertia, along principalAxes' columns [kg m^2]
  /// The principal axes as columns, in hull axes: a rotation (determinant
  /// +1), `inertia = principalAxes * diag(principalInertia) *
  /// principalAxes^T`. Column i is the principal axis nearest hull axis i,
  /// pointing its way, so an upright boat's axes stay near its own. Where
  /// two or three moments are equal to the input's rounding (an octagonal
  /// section, a cube), any axes of their eigenspace are principal and the
  /// hull's own are kept (projected into it; docs/mass.md, "Equal moments").
  btMatrix3x3 principalAxes;

  /// The body frame Bullet wants (origin at the centre of mass, principal
  /// axes) placed in the hull frame: `p_hull = bodyToHull() * p_body`.
  [[nodiscard]] btTransform bodyToHull() const { return btTransform(principalAxes, centreOfMass_m); }
  /// The hull frame (a mesh file's) placed in the body frame:
  /// `p_body = hullToBody() * p_hull`. The body is turned from the file's
  /// axes by the principal axes (a few degrees for a boat whose mass is
  /// not symmetric fore and aft), so whatever was drawn along the file's
  /// axes (a bow, a deck, a propeller's thrust line) must be mapped.
  [[nodiscard]] btTransform hullToBody() const {
    const btMatrix3x3 toBody = principalAxes.transpose();  // a rotation: its inverse
    return btTransform(toBody, toBody * -centreOfMass_m);
  }
  /// A direction in hull axes (a file's forward or up, a thrust line) in body axes.
  [[nodiscard]] btVector3 directionInBody(const btVector3& direction_hull) const {
    return principalAxes.transpose() * direction_hull;
  }
  /// A point in the hull frame (a propeller, a cleat) in the body frame [m].
  [[nodiscard]] btVector3 pointInBody(const btVector3& point_hull) const {
    return principalAxes.transpose() * (point_hull - centreOfMass_m);
  }
  /// A hull's forward and up given in hull axes (a file's: HullAxes) in
  /// body axes: what keel::attitude, a HUD or a propeller need once the body
  /// is on the principal axes.
  [[nodiscard]] HullAxes axesInBody(const HullAxes& axes_hull) const {
    return {.forward = directionInBody(axes_hull.forward), .up = directionInBody(axes_hull.up)};
  }
};

/// A solid `hull` of uniform density [kg/m^3]. Throws std::invalid_argument
/// for a density that is not finite and positive, and as below.
[[nodiscard]] MassProperties massProperties(const Hull& hull, double density_kgpm3);
/// The properties of mass moments [kg, kg m, kg m^2] about the hull origin
/// (Moments::scaled of volume moments, or MassModel::massMoments()). Throws
/// std::invalid_argument unless every moment is finite, and the mass and
/// each principal moment lie in 2^-63 to 2^63 kg, kg m^2 (what Bullet can
/// invert and multiply in float) with the smallest moment above 1e-11 of
/// the second moments' trace about the origin (else it is their rounding:
/// a lone point mass, a rod, a body far from the origin; docs/mass.md,
/// "Bounds").
[[nodiscard]] MassProperties massProperties(const Moments& massMoments);

/// How a region's density combines with the solid around it.
enum class RegionDensity {
  Replaces,  ///< the region holds its density instead of the model's solid's (a tank in a solid hull)
  Adds,      ///< on top of whatever else is there (ballast poured into a shell hull)
};

/// A boat's mass built from parts, each integrated exactly once and kept,
/// so that a part's density can change (a tank filled, a compartment
/// flooded) without integrating again. Every position is in the hull frame.
///
/// Regions (ballast, compartments) should lie inside the solid when they
/// replace its density: the solid's density is subtracted over the whole
/// region. With no solid, Replaces is the same as Adds. Densities are
/// checked when given: finite and >= 0 (0 is an empty tank), and a part may
/// weigh at most 2^63 kg (docs/mass.md, "Bounds").
class MassModel {
 public:
  /// One integrated part: its geometric moments and the density that weighs them.
  struct Part {
    /// Volume moments (solid, ballast, compartment), area moments (shell, its
    /// weight `density * thickness`), or a point's (zeroth 1, point mass).
    Moments geometry;
    /// [kg/m^3]; [kg/m^2] for a shell; [kg] for a point mass.
    double density = 0;
    bool replacesSolid = false;  ///< RegionDensity::Replaces
  };

  /// The solid `hull` of density [kg/m^3]: the material regions replace.
  /// One solid per model: a second throws std::invalid_argument.
  MassModel& solid(const Hull& hull, double density_kgpm3);
  /// A thin shell over `hull`'s surface (its area moments weighed by
  /// `density_kgpm3 * thickness_m`; the thickness small against the hull's
  /// radii of curvature). Throws unless the thickness is finite, > 0 and at
  /// most the hull's volume over its area (thicker, the shell would weigh
  /// more than the hull filled solid: millimetres given as metres).
  MassModel& shell(const Hull& hull, double thickness_m, double density_kgpm3);
  /// `hull` below the plane `up . x = height_m |up|` (volumeMomentsBelow()),
  /// filled with `density_kgpm3`. Throws when nothing lies below.
  MassModel& ballastBelow(const Hull& hull, const btVector3& up, double height_m, double density_kgpm3,
                          RegionDensity mode = RegionDensity::Replaces);
  /// A compartment: the closed `mesh` (hull frame) filled with `density_kgpm3`.
  /// A keel::Hull, so that it is checked closed (build one from a
  /// btTriangleMesh; volumeMoments() takes raw triangles unchecked).
  MassModel& compartment(const Hull& mesh, double density_kgpm3, RegionDensity mode = RegionDensity::Replaces);
  /// A point mass [kg] at `position_m`: an engine, a crew. Throws unless finite and > 0.
  MassModel& pointMass(double mass_kg, const btVector3& position_m);

  /// The parts in the order they were added.
  [[nodiscard]] std::span<const Part> parts() const { return parts_; }
  /// Changes part `index`'s density (checked as when it was added; the
  /// solid's changes what regions replace).
  void setDensity(std::size_t index, double density);
  /// Sum of the parts' mass moments [kg, kg m, kg m^2], about the hull origin.
  [[nodiscard]] Moments massMoments() const;
  /// massProperties(massMoments()); throws std::invalid_argument when the
  /// parts weigh nothing (or less).
  [[nodiscard]] MassProperties properties() const;

 private:
  MassModel& add(const Moments& geometry, double density, bool replacesSolid, const char* what);

  static constexpr std::size_t kNoSolid = std::size_t(-1);
  std::vector<Part> parts_;
  std::size_t solid_ = kNoSolid;  // index of the solid part, if any
};

/// `hull` moved into the body frame `bodyToHull` (MassProperties::bodyToHull()):
/// each vertex becomes `bodyToHull.inverse() * v`. The result is built with
/// `options` (so refined and validated again). Throws std::invalid_argument
/// when `bodyToHull` is not finite or its basis is no rotation (scaled,
/// sheared or mirrored: its inverse would not move the mesh back).
[[nodiscard]] std::shared_ptr<const Hull> toBodyFrame(const Hull& hull, const btTransform& bodyToHull,
                                                      const HullOptions& options = {});
/// A mesh (any btStridingMeshInterface, its scaling applied) moved the same
/// way, as a new btTriangleMesh (32-bit indices) for a collision shape.
/// Throws std::invalid_argument when `bodyToHull` is not finite or no
/// rotation, or a triangle moves to a non-finite vertex (named).
[[nodiscard]] std::unique_ptr<btTriangleMesh> toBodyFrame(const btStridingMeshInterface& mesh,
                                                          const btTransform& bodyToHull);

/// The mass [kg] that floats `hull` at `draft_m` (the depth of its lowest
/// point below flat water) at heel and trim [rad] (Attitude's conventions
/// for `axes`) in water of `waterDensity_kgpm3`: rho times the volume below
/// the waterplane, exact. Throws std::invalid_argument for non-finite or
/// negative arguments, axes that are no frame (heel_rad()), or a density
/// whose displaced mass is not finite.
[[nodiscard]] double massForDraft_kg(const Hull& hull, double draft_m, double waterDensity_kgpm3,
                                     const HullAxes& axes = {}, double heel_rad = 0, double trim_rad = 0);
/// The draft [m] at which `hull` floats with `mass_kg` at that heel and trim:
/// massForDraft_kg() solved by bisection to round-off. Throws
/// std::invalid_argument when the mass is not positive or more than the
/// hull displaces when wholly under.
[[nodiscard]] double draftForMass_m(const Hull& hull, double mass_kg, double waterDensity_kgpm3,
                                    const HullAxes& axes = {}, double heel_rad = 0, double trim_rad = 0);

/// Ballast: a mass and where its centre goes.
struct Ballast {
  double mass_kg = 0;             ///< [kg]
  btVector3 position_m{0, 0, 0};  ///< its centre of mass, hull frame [m]
};

/// The ballast that floats `hull`, built of `structure` (its shell, engines,
/// fittings: a MassModel in the hull frame), level at `draft_m` (the depth
/// of its lowest point below flat water, heel and trim 0 for `axes`) in
/// water of `waterDensity_kgpm3`. Its mass is the displacement at that
/// draft less the structure's mass. Its centre is at `height_m` along
/// `axes.up` (normalised; the hull frame's origin at 0: the keel's height
/// plus half the ballast's depth, say), and along forward and starboard
/// where it brings the centre of mass of the whole onto the vertical
/// through the centre of buoyancy at that draft: then the weight and the
/// buoyancy are equal and in line, and the boat floats level there (if it
/// is stable: the centre of mass below the metacentre). Add it as
/// `structure.pointMass(b.mass_kg, b.position_m)`, or as any block of that
/// mass centred there. Throws std::invalid_argument for the arguments
/// massForDraft_kg refuses or a non-finite height, when the structure alone
/// weighs as much as the displacement or more (both named), and when the
/// centre falls outside the hull's bounds (the structure too far off
/// balance for ballast to trim it level).
[[nodiscard]] Ballast ballastForWaterline(const Hull& hull, const MassModel& structure, double draft_m, double height_m,
                                          double waterDensity_kgpm3, const HullAxes& axes = {});

}  // namespace keel::KEEL_ABI
