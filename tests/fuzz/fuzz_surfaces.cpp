// keel_fuzz surfaces: random spectral oceans, sines, Gerstner seas and flat
// water, valid and not, asked random queries through every public query;
// each settings or query either throws std::invalid_argument or answers
// finite values (a moved-from ocean: std::logic_error), never a crash, never
// a sanitizer's report. Points with a NaN coordinate may answer NaN, and so
// may the sines', Gerstner's and flat water's at a non-finite time.
#include "fuzz.hpp"

#include <keel/height_grid.hpp>
#include <keel/spectral_ocean.hpp>
#include <keel/surface_authoring.hpp>
#include <keel/waves.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test::fuzz {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Mostly `lo..hi`, sometimes one of `odd` (values a game should not send).
double value(Random& r, double lo, double hi, std::initializer_list<double> odd) {
  if (integer(r, 0, 7) != 0 || odd.size() == 0) return uniform(r, lo, hi);
  return *(odd.begin() + integer(r, 0, int(odd.size()) - 1));
}

WaveSpectrum randomSpectrum(Random& r) {
  return WaveSpectrum::jonswap(value(r, 0.1, 8, {0, -1, kNaN, 1e-300, 1e35, 1e300}),
                               value(r, 2, 16, {0, -1, kNaN, 1e-300, 1e-3, 1e5, 1e300}),
                               value(r, 1, 7, {0.5, 9, kNaN}));
}

SpectralOceanSettings randomSettings(Random& r) {
  SpectralOceanSettings s;
  const int nodes[] = {16, 16, 16, 32, 32, 64};
  s.nodesPerSide = integer(r, 0, 19) == 0 ? integer(r, -4, 2100) | 1 : nodes[integer(r, 0, 5)];
  if (integer(r, 0, 199) == 0) s.nodesPerSide = 1024;  // with the largest bands and refinement: the memory bound
  s.tileSize_m = integer(r, 0, 1) == 0 ? 0 : value(r, 20, 800, {1, 10, 1e6, -5, 1e-300, kNaN, INFINITY});
  s.choppiness = value(r, 0, 1, {-0.1, 1.5, kNaN});
  s.velocityBands = integer(r, 0, 9) == 0 ? integer(r, -1, 12) : integer(r, 1, 4);
  s.interpolation = SpectralInterpolation(integer(r, 0, 9) == 0 ? integer(r, -2, 5) : integer(r, 0, 1));
  s.query = SpectralQuery(integer(r, 0, 9) == 0 ? integer(r, -2, 5) : integer(r, 0, 4) == 0);
  s.fixedPointRefinement = value(r, 1, s.nodesPerSide > 32 ? 1.5 : 2, {0.5, 5, kNaN});
  s.meanLevel_m = value(r, -5, 5, {1e30, -1e300, kNaN});
  s.meanDirection_rad = value(r, -7, 7, {1e300, kNaN});
  s.spreadingExponent = value(r, 0, 30, {1e3, 1e20, 1e300, -1, INFINITY, kNaN});
  s.maxFrequencyRatio = value(r, 1.5, 5, {1, 1e300, kNaN});
  s.seed = std::uint64_t(integer(r, 0, 1 << 30));
  s.gravity_mps2 = value(r, 9, 10, {0, 1e-300, 1e300, kNaN});
  if (s.nodesPerSide == 1024) s.velocityBands = 8, s.fixedPointRefinement = 4;
  return s;
}

std::string describe(const WaveSpectrum& w) {
  char text[160];
  std::snprintf(text, sizeof text, "Hs %g m, Tp %g s, gamma %g", w.significantWaveHeight_m, w.peakPeriod_s,
                w.peakEnhancement);
  return text;
}

std::string describe(const SpectralOceanSettings& s) {
  char text[400];
  std::snprintf(text, sizeof text,
                "tile %g m, %d nodes, choppiness %g, %d bands, interpolation %d, query %d, refinement %g, level %g m, "
                "direction %g, spreading %g, max ratio %g, seed %llu, g %g",
                s.tileSize_m, s.nodesPerSide, s.choppiness, s.velocityBands, int(s.interpolation), int(s.query),
                s.fixedPointRefinement, s.meanLevel_m, s.meanDirection_rad, s.spreadingExponent, s.maxFrequencyRatio,
                static_cast<unsigned long long>(s.seed), s.gravity_mps2);
  return text;
}

/// A height grid as a game feeds it: a layout (valid or not: cells of no
/// size, too few or too many nodes, an edge rule out of range), one or two
/// snapshots of heights (some huge; NaN heights answer NaN where they
/// are, which the substep's sampling replaces and reports), their time stamps (some too
/// close together, equal, decreasing or NaN).
std::unique_ptr<WaterSurface> randomHeightGrid(Random& r, std::string& what) {
  HeightGridLayout layout{
      .originEast_m = value(r, -500, 500, {1e30, kNaN}),
      .originNorth_m = value(r, -500, 500, {-1e30}),
      .cellSize_m = value(r, 0.05, 20, {0, -1, 1e-30, 1e30, kNaN}),
      .nodesEast = integer(r, 0, 9) == 0 ? integer(r, -2, 70000) : integer(r, 2, 40),
      .nodesNorth = integer(r, 2, 40),
      .edges = static_cast<GridEdges>(integer(r, 0, 9) == 0 ? integer(r, -1, 5) : integer(r, 0, 1))};
  what = "height grid " + std::to_string(layout.nodesEast) + " x " + std::to_string(layout.nodesNorth) + " of " +
         std::to_string(layout.cellSize_m) + " m, edges " + std::to_string(int(layout.edges));
  auto grid = std::make_unique<HeightGridSurface>(layout, value(r, -2, 2, {kNaN}));
  double t_s = uniform(r, 0, 100);
  for (int k = integer(r, 1, 3); k > 0; --k) {
    const double amplitude_m = value(r, 0, 5, {1e30});
    std::vector<btScalar> h(grid->backBuffer_m().size());
    for (btScalar& x : h) x = btScalar(uniform(r, -amplitude_m, amplitude_m));
    t_s += value(r, 0.01, 1, {0, -1, 1e-6, 1e-3, kNaN});
    grid->setHeights(h, t_s);
  }
  return grid;
}

/// A random surface, `what` it is; `ocean` when it is a SpectralOcean.
std::unique_ptr<WaterSurface> randomSurface(Random& r, SpectralOcean*& ocean, std::string& what) {
  ocean = nullptr;
  switch (integer(r, 0, 8)) {
    case 0: {
      const double level = value(r, -5, 5, {1e30, kNaN});
      what = "flat at " + std::to_string(level) + " m";
      return std::make_unique<FlatSurface>(level);
    }
    case 1: {
      SeaStateSettings sea{.meanDirection_rad = uniform(r, -3, 3), .componentCount = std::size_t(integer(r, 1, 12))};
      const WaveSpectrum spectrum = randomSpectrum(r);
      auto waves = sampleSeaState(spectrum, sea);
      what = describe(spectrum);
      if (integer(r, 0, 1) == 0) {
        what = "sines of " + what;
        return std::make_unique<SineSumSurface>(std::move(waves));
      }
      const double steepness = value(r, 0, 1, {1.5, kNaN});
      what = "Gerstner of steepness " + std::to_string(steepness) + ", " + what;
      return std::make_unique<GerstnerSurface>(std::move(waves), GerstnerSettings{.steepness = steepness});
    }
    case 2: return randomHeightGrid(r, what);
    default: {
      const WaveSpectrum spectrum = randomSpectrum(r);
      const SpectralOceanSettings settings = randomSettings(r);
      what = "spectral of " + describe(spectrum) + "; " + describe(settings);
      auto made = std::make_unique<SpectralOcean>(spectrum, settings);
      ocean = made.get();
      return made;
    }
  }
}

/// A coordinate [m]: mostly near the origin, sometimes far or NaN.
btScalar coordinate(Random& r, bool& nan) {
  const double c = value(r, -500, 500, {1e7, -3e12, 1e30, kNaN});
  nan = nan || std::isnan(c);
  return btScalar(c);
}

WaterGrid randomGrid(Random& r) {
  WaterGrid g;
  g.cellSize_m = value(r, 0.05, 60, {500, -1, 0, 1e30, 1e300, kNaN, INFINITY, 1e-300});
  const auto origin = [&] {
    const int pick = integer(r, 0, 9);
    if (pick == 0) return std::numeric_limits<std::int64_t>::max() - 3;
    if (pick == 1) return std::int64_t(1) << integer(r, 20, 60);
    return std::int64_t(integer(r, -2000, 2000));
  };
  g.originI = origin();
  g.originJ = origin();
  g.nodesU = integer(r, 0, 19) == 0 ? -integer(r, 1, 5) : integer(r, 0, 24);
  g.nodesV = integer(r, 0, 19) == 0 ? -integer(r, 1, 5) : integer(r, 0, 24);
  return g;
}

/// Counts one query's outcome; false on a failure (printed).
struct Outcome {
  long answered = 0, refused = 0, failed = 0;
  void fail(long i, const std::string& what) {
    ++failed;
    std::printf("case %ld: %s\n", i, what.c_str());
  }
};

bool finite(btScalar x) { return std::isfinite(x); }
bool finite(const WaterVelocity& v) { return finite(v.east_mps) && finite(v.north_mps) && finite(v.up_mps); }
bool finite(const WaterAcceleration& a) { return finite(a.east_mps2) && finite(a.north_mps2) && finite(a.up_mps2); }

template <class T>
bool allFinite(const std::vector<T>& values, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k)
    if (!finite(values[k])) return false;
  return true;
}

/// One random query of `surface`; true when it answered finite values (or
/// NaN for a NaN point), false when they were not. Throws what it throws.
bool query(Random& r, const WaterSurface& surface, SpectralOcean* ocean, std::string& what) {
  const double t = value(r, -10, 100, {1e300, -1e300, kNaN, INFINITY});
  what = "at t = " + std::to_string(t) + " s";
  // The spectral ocean refuses a non-finite time; the other surfaces take it
  // as a NaN coordinate.
  bool nan = ocean == nullptr && !std::isfinite(t);
  const std::size_t count = std::size_t(integer(r, 1, 9));
  std::vector<btScalar> u(count), v(count), w(count), h(count);
  for (std::size_t k = 0; k < count; ++k) {
    u[k] = coordinate(r, nan);
    v[k] = coordinate(r, nan);
    w[k] = btScalar(value(r, -60, 20, {-1e30, 1e30, kNaN}));
    nan = nan || std::isnan(w[k]);
  }
  std::vector<WaterVelocity> vel(count);
  std::vector<WaterAcceleration> acc(count);
  switch (integer(r, 0, 10)) {
    case 0: what += ": height"; return finite(surface.height(u[0], v[0], t)) || nan;
    case 1:
      what += ": heights";
      surface.heights(u.data(), v.data(), count, t, h.data());
      return allFinite(h, count) || nan;
    case 2: what += ": velocity"; return finite(surface.velocity(u[0], v[0], w[0], t)) || nan;
    case 3:
      what += ": heightsAndVelocities";
      surface.heightsAndVelocities(u.data(), v.data(), w.data(), count, t, h.data(), vel.data());
      return (allFinite(h, count) && allFinite(vel, count)) || nan;
    case 4:
      what += ": pressureHeads";
      surface.pressureHeads(u.data(), v.data(), w.data(), count, t, h.data());
      return allFinite(h, count) || nan;
    case 5:
      what += ": velocities";
      surface.velocities(u.data(), v.data(), w.data(), count, t, vel.data());
      return allFinite(vel, count) || nan;
    case 6:
      if (ocean == nullptr) return true;
      what += ": accelerations";
      ocean->accelerations(u.data(), v.data(), w.data(), count, t, acc.data());
      return (allFinite(acc, count) && finite(ocean->acceleration(u[0], v[0], w[0], t))) || nan;
    case 7:
      if (ocean == nullptr) return true;
      what += ": update";
      {
        const double from = value(r, -100, 100, {1e300, -1e300, kNaN});
        ocean->update(from, from + value(r, 0, 0.2, {-1, 10, 1e6, 1e300}));
      }
      return std::isfinite(ocean->publishedTimes_s()[0]);
    case 8:
      if (ocean == nullptr) return true;
      what += ": summaries";
      (void)ocean->components();
      (void)ocean->queryCost();
      return std::isfinite(ocean->significantWaveHeight_m()) && std::isfinite(ocean->expectedSignificantWaveHeight_m());
    default: {
      const WaterGrid g = randomGrid(r);
      const std::size_t nodes = std::size_t(std::max(g.nodesU, 0)) * std::size_t(std::max(g.nodesV, 0));
      const std::size_t depths = std::size_t(integer(r, 0, 6));
      std::vector<double> depth(depths);
      for (double& d : depth) d = value(r, 0, 30, {-1, kNaN, 1e300});
      std::vector<btScalar> gh(nodes);
      std::vector<WaterVelocity> gv(nodes * depths);
      what += ": grid cell " + std::to_string(g.cellSize_m) + " origin " + std::to_string(g.originI) + ", " +
              std::to_string(g.originJ) + " nodes " + std::to_string(g.nodesU) + " x " + std::to_string(g.nodesV) +
              ", depths";
      for (double d : depth) {
        char text[32];
        std::snprintf(text, sizeof text, " %g", d);
        what += text;
      }
      const bool answered = integer(r, 0, 1) == 0 ? surface.gridHeights(g, t, gh.data())
                                                  : surface.gridHeightsAndVelocities(
                                                        g, {.depths_m = depth, .out = gv.data()}, t, gh.data());
      return !answered || (allFinite(gh, nodes) && allFinite(gv, gv.size())) || nan;
    }
  }
}

}  // namespace

int surfaces(long count, std::uint64_t seed, long first) {
  Random r(seed);
  Outcome o;
  long built = 0;
  for (long i = 0; i < count; ++i) {
    if (i % 10000 == 0 && i > 0) std::fprintf(stderr, "case %ld\n", i);
    Random caseRandom(r());  // each case its own stream, so FIRST reproduces one alone
    if (i < first) continue;
    std::unique_ptr<WaterSurface> surface;
    SpectralOcean* ocean = nullptr;
    std::string kind;
    try {
      surface = randomSurface(caseRandom, ocean, kind);
      ++built;
    } catch (const std::invalid_argument&) {
      ++o.refused;
      continue;
    } catch (const std::exception& e) {
      o.fail(i, std::string("construction threw ") + e.what());
      continue;
    }
    for (int q = integer(caseRandom, 1, 6); q > 0; --q) {
      std::string what;
      try {
        if (!query(caseRandom, *surface, ocean, what)) o.fail(i, what + ": a non-finite answer on " + kind);
        ++o.answered;
      } catch (const std::invalid_argument&) {
        ++o.refused;
      } catch (const std::exception& e) {
        o.fail(i, what + " threw " + e.what() + " on " + kind);
      }
    }
    if (ocean != nullptr && integer(caseRandom, 0, 9) == 0) {
      // A moved-from ocean says so.
      SpectralOcean moved = std::move(*ocean);
      try {
        (void)ocean->height(0, 0, 0);
        o.fail(i, "a moved-from ocean answered");
      } catch (const std::logic_error&) {
        ++o.refused;
      }
    }
  }
  std::printf("surfaces: %ld built, %ld queries answered, %ld refusals\n", built, o.answered, o.refused);
  std::printf("%ld passed, %ld failed\n", count - o.failed, o.failed);
  return o.failed == 0 ? 0 : 1;
}

}  // namespace keel::test::fuzz
