#pragma once
// The triangle model's exact integrals refuse a hull whose parts overlap
// (HullOptions::overlappingParts): they sum every part's surface, which
// counts the shared volume twice. Only the column model floats the union.

#include <keel/hull.hpp>

#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI::detail {

/// Throws std::invalid_argument naming `where` when `hull`'s parts overlap.
inline void refuseOverlappingParts(const Hull& hull, const char* where) {
  if (hull.partsOverlap())
    throw std::invalid_argument(std::string(where) +
                                ": the hull's parts overlap (built with HullOptions::overlappingParts), and the "
                                "triangle model would count their shared volume twice; only the column model "
                                "floats their union (keel::ColumnHull, BuoyancyModel::Columns)");
}

}  // namespace keel::KEEL_ABI::detail
