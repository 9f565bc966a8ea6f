#pragma once
/// @file hull_slice.hpp
/// Parts of a hull cut off by planes: the compartments between bulkheads
/// (transverse, and along the centreline), or the part below a height for
/// ballast. Exact for polyhedra: the hull's
/// triangles are clipped by the planes and the sections capped, so the
/// slices' volumes add up to the hull's.

#include <keel/config.hpp>
#include <keel/flooding.hpp>
#include <keel/hull.hpp>

#include <LinearMath/btVector3.h>

#include <memory>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {

/// The part of `hull` where `from_m <= n . p <= to_m`, n = `normal`
/// normalised, closed by its sections in the two planes (body frame, [m]).
/// `from_m` may be -infinity and `to_m` +infinity (one plane: the hull below
/// or above it). Throws std::invalid_argument for a zero or non-finite
/// normal, from_m >= to_m or a NaN bound, or planes that leave nothing of
/// the hull; HullError when the slice is not a valid hull.
[[nodiscard]] std::shared_ptr<const Hull> sliceHull(const Hull& hull, const btVector3& normal, btScalar from_m,
                                                    btScalar to_m);

/// Compartments between watertight bulkheads across `normal` at `positions_m`
/// (strictly increasing, along the normalised `normal`, body frame): one
/// more compartment than bulkheads, from one end of the hull to the other,
/// named "compartment 0", ... from the lowest position up, dry and without
/// openings. Errors as sliceHull, and std::invalid_argument for positions
/// that are not strictly increasing or finite. `simplify_m` > 0: each
/// compartment simplified with that tolerance (simplifiedHull), as a
/// compartment costs time each substep in proportion to its triangles.
[[nodiscard]] std::vector<Compartment> bulkheadCompartments(const Hull& hull, const btVector3& normal,
                                                            std::span<const btScalar> positions_m,
                                                            btScalar simplify_m = 0);

/// bulkheadCompartments' compartments, each split in two by a centreline
/// bulkhead: the plane `starboard . p = centre_m` (`starboard` normalised,
/// body frame, pointing across the boat to starboard). Transverse
/// bulkheads alone cannot list a boat, since each compartment floods across
/// the whole beam; a boat holed on one side of a centreline bulkhead floods
/// that side only, and lists to it. Twice as many compartments, in pairs in
/// bulkheadCompartments' order: "compartment i port" (starboard . p <=
/// centre_m), then "compartment i starboard". Errors as
/// bulkheadCompartments, and std::invalid_argument for a zero or
/// non-finite `starboard`, a non-finite centre, or a compartment that lies
/// wholly on one side. A section's cap is a fan from its centre, which on
/// a symmetric hull lies on the centreline: a cut through it can leave a
/// piece open (HullError); a centreline a millimetre off avoids it.
[[nodiscard]] std::vector<Compartment> sideCompartments(const Hull& hull, const btVector3& normal,
                                                        std::span<const btScalar> positions_m,
                                                        const btVector3& starboard, btScalar centre_m = 0,
                                                        btScalar simplify_m = 0);

/// `hull` with fewer triangles where its surface is flat or nearly, no point
/// of it moved by more than about `tolerance_m` [m] (edge collapses by
/// meshoptimizer, Garland and Heckbert's quadric error metric): a box cut
/// from a finely meshed hull becomes 12 triangles and keeps its volume. 0
/// returns `hull`; so does a simplification that would not be a valid hull
/// (it can leave zero-area slivers, which Hull drops). The vertices are a
/// subset of hull's. Throws std::invalid_argument for a null hull or a
/// tolerance that is negative, infinite or NaN.
[[nodiscard]] std::shared_ptr<const Hull> simplifiedHull(std::shared_ptr<const Hull> hull, btScalar tolerance_m);

}  // namespace keel::KEEL_ABI
