// Random hulls and random substeps, to find what the analytic tests miss:
//   keel_fuzz hulls N [SEED [FIRST]]
//                          N random meshes through keel::Hull: each is built
//                          or refused with a HullError, never a crash, a
//                          hang or another exception; the slowest is timed,
//                          any over 1 s is named (FIRST skips to it).
//   keel_fuzz substeps N   N substeps of random boats in random states (up
//                          to 1000 m/s and 1000 rad/s) on every shipped
//                          surface and on NaN, huge and throwing heights:
//                          the velocity change is always finite, and the
//                          dissipative terms never add kinetic energy
//                          relative to the water beyond what the water's
//                          and the wind's motion gives (none in uniform
//                          water and still air; fuzz_substeps.cpp).
//   keel_fuzz flooding N   N cases of random compartments (valid and not),
//                          openings, pumps, holes, seas (NaN, 1e30,
//                          throwing) and time steps: refused naming the
//                          field, or the water within [0, capacity], the
//                          water balance to 1e-12, the force finite, and no
//                          water moved without time passing.
//   keel_fuzz surfaces N   N random spectral oceans, sines, Gerstner seas
//                          and flat water, valid and not, asked random
//                          queries through every public query: each throws
//                          std::invalid_argument or answers finite values.
// Prints "N passed, M failed" and exits non-zero on a failure. ctest runs
// a short smoke of each; docs/model.md §4 quotes a long run.
#include "fuzz.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Mode {
  const char* name;
  int (*run)(long count, std::uint64_t seed, long first);
};

/// Every mode: keel_fuzz NAME [COUNT [SEED [FIRST]]].
constexpr Mode kModes[] = {
    {"hulls", keel::test::fuzz::hulls},
    {"substeps", keel::test::fuzz::substeps},
    {"flooding", keel::test::fuzz::flooding},
    {"surfaces", keel::test::fuzz::surfaces},
};

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const long count = argc > 2 ? std::atol(argv[2]) : 1000;
  const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  const long first = argc > 4 ? std::atol(argv[4]) : 0;  // where a mode may skip to (hulls)
  for (const Mode& m : kModes)
    if (mode == m.name) return m.run(count, seed, first);
  std::fprintf(stderr, "usage: keel_fuzz MODE [count [seed [first]]], MODE one of:");
  for (const Mode& m : kModes) std::fprintf(stderr, " %s", m.name);
  std::fprintf(stderr, "\n");
  return 2;
}
