// What the fuzzer's modes share: a seeded random stream and its draws.
// Each mode is a function in its own file (fuzz_<mode>.cpp), listed in
// fuzz.cpp's table.
#pragma once

#include <cstdint>
#include <random>

namespace keel::test::fuzz {

using Random = std::mt19937_64;

inline double uniform(Random& r, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(r); }
inline int integer(Random& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }

/// keel_fuzz hulls N [SEED [FIRST]]: random meshes through keel::Hull.
int hulls(long count, std::uint64_t seed, long first);
/// keel_fuzz substeps N [SEED]: random boats in random states on random water.
int substeps(long count, std::uint64_t seed, long first);
/// keel_fuzz flooding N [SEED [FIRST]]: random compartments, openings, seas
/// and time steps through WaterAction (FIRST replays from that case).
int flooding(long count, std::uint64_t seed, long first);
/// keel_fuzz surfaces N [SEED [FIRST]]: random surfaces, valid and not,
/// through every public query.
int surfaces(long count, std::uint64_t seed, long first);

}  // namespace keel::test::fuzz
