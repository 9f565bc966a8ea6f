#pragma once
// What WaterAction accepts as compartments and openings (docs/flooding.md,
// "The model"): each refusal a std::invalid_argument naming the
// compartment, the field, its value and the bound.

#include <keel/flooding.hpp>
#include <keel/hull.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// A compartment's capacity [m^3]: its permeability times its volume, in
/// btScalar, the one number its starting water is checked against, the
/// substep keeps its water within and CompartmentStatus::capacity_m3 reports.
[[nodiscard]] inline btScalar capacityOf(const Compartment& c) { return c.permeability * c.space->volume_m3(); }

/// What is wrong with opening `o` of compartment `self` among `count`
/// compartments (`self` == count: no compartment, a hole to the sea only),
/// or empty.
[[nodiscard]] std::string openingProblem(const Opening& o, std::size_t self, std::size_t count);

/// Throws std::invalid_argument, prefixed with `where`, for the first
/// compartment of `all` with a bad field or opening, a door listed in both
/// the compartments it joins, or, given the boat's `hull`, a compartment
/// outside the hull's bounds or larger than the hull, or compartments that
/// overlap.
void checkCompartments(const std::vector<Compartment>& all, const Hull* hull, const char* where);

}  // namespace keel::KEEL_ABI::detail
