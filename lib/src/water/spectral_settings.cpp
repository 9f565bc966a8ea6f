// keel::SpectralOcean's settings checked before the tiles are made, the
// drawn waves checked before they are synthesised, and the bounds an update
// window and the tiles' memory are held to. docs/waves.md, "Spectral ocean",
// "Bounds".

#include "math/fft2d.hpp"
#include "water/spectral_detail.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI::detail {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDefaultTileWavelengths = 6;
// Tiles are floats: the sums of the waves' amplitudes, velocities and
// accelerations stay within this, so that products of two of them (the
// fixed-point rate's advection, u_h times the slope) stay finite in float.
constexpr double kMaxWaveSum = 1e15;
// Heights are btScalar, float in a float build: the mean level within this.
constexpr double kMaxMeanLevel_m = 1e30;
// Below this fraction of the peak frequency a spectrum's density underflows
// (WaveSpectrum::density_m2sprad stops at an exponent of 700).
constexpr double kLowestFrequencyRatio = 0.2;

/// Throws the message streamed into `what` (an ostringstream).
[[noreturn]] void fail(std::ostream& what) {
  throw std::invalid_argument("keel::SpectralOcean: " + static_cast<std::ostringstream&>(what).str());
}

/// Deep-water wavelength [m] of angular frequency `omega` [rad/s].
double wavelength_m(double omega_radps, double gravity_mps2) {
  return 2 * kPi * gravity_mps2 / (omega_radps * omega_radps);
}

void checkSpectrum(const WaveSpectrum& spectrum) {
  std::ostringstream s;
  if (!(spectrum.significantWaveHeight_m > 0 && std::isfinite(spectrum.significantWaveHeight_m)))
    fail(s << "WaveSpectrum::significantWaveHeight_m is " << spectrum.significantWaveHeight_m
           << " m: it must be positive and finite");
  if (!(spectrum.peakPeriod_s > 0 && std::isfinite(spectrum.peakPeriod_s)))
    fail(s << "WaveSpectrum::peakPeriod_s is " << spectrum.peakPeriod_s << " s: it must be positive and finite");
  if (!(spectrum.peakEnhancement >= 1 && spectrum.peakEnhancement <= 7))
    fail(s << "WaveSpectrum::peakEnhancement is " << spectrum.peakEnhancement << ": gamma must lie in [1, 7]");
}

/// The tile size 0 asks for, 6 peak wavelengths, or the reason there is none.
double defaultTileSize_m(const WaveSpectrum& spectrum, double gravity_mps2) {
  const double tile_m = kDefaultTileWavelengths * wavelength_m(spectrum.peakAngularFrequency_radps(), gravity_mps2);
  if (!(tile_m > 0 && std::isfinite(tile_m))) {
    std::ostringstream s;
    fail(s << "WaveSpectrum::peakPeriod_s is " << spectrum.peakPeriod_s << " s: the tile of 6 peak wavelengths "
           << "SpectralOceanSettings::tileSize_m = 0 asks for is " << tile_m << " m, not a positive finite size");
  }
  return tile_m;
}

void checkEnums(const SpectralOceanSettings& settings) {
  std::ostringstream s;
  if (settings.interpolation != SpectralInterpolation::Bilinear &&
      settings.interpolation != SpectralInterpolation::Bicubic)
    fail(s << "SpectralOceanSettings::interpolation is " << int(settings.interpolation)
           << ": it must be SpectralInterpolation::Bilinear or Bicubic");
  if (settings.query != SpectralQuery::FixedPointTiles && settings.query != SpectralQuery::ParticleSolve)
    fail(s << "SpectralOceanSettings::query is " << int(settings.query)
           << ": it must be SpectralQuery::FixedPointTiles or ParticleSolve");
}

void checkRanges(const SpectralOceanSettings& settings) {
  std::ostringstream s;
  if (!(settings.choppiness >= 0 && settings.choppiness <= 1))
    fail(s << "SpectralOceanSettings::choppiness is " << settings.choppiness << ": it must lie in [0, 1]");
  if (settings.velocityBands < 1 || settings.velocityBands > kMaxVelocityBands)
    fail(s << "SpectralOceanSettings::velocityBands is " << settings.velocityBands << ": it must lie in [1, "
           << kMaxVelocityBands << "]");
  if (!(std::abs(settings.meanLevel_m) <= kMaxMeanLevel_m))
    fail(s << "SpectralOceanSettings::meanLevel_m is " << settings.meanLevel_m << " m: it must be finite and within "
           << kMaxMeanLevel_m << " m of 0 (heights are btScalar)");
  if (!std::isfinite(settings.meanDirection_rad))
    fail(s << "SpectralOceanSettings::meanDirection_rad is " << settings.meanDirection_rad
           << " rad: it must be finite");
  if (!(settings.spreadingExponent >= 0 && std::isfinite(settings.spreadingExponent)))
    fail(s << "SpectralOceanSettings::spreadingExponent is " << settings.spreadingExponent
           << ": it must be finite and >= 0 (a grid of wavevectors cannot hold long-crested waves)");
  if (!(settings.fixedPointRefinement >= 1 && settings.fixedPointRefinement <= 4))
    fail(s << "SpectralOceanSettings::fixedPointRefinement is " << settings.fixedPointRefinement
           << ": it must lie in [1, 4]");
  if (!(settings.maxFrequencyRatio > 1 && std::isfinite(settings.maxFrequencyRatio)))
    fail(s << "SpectralOceanSettings::maxFrequencyRatio is " << settings.maxFrequencyRatio
           << ": it must be finite and > 1");
}

}  // namespace

int fixedNodesOf(const SpectralOceanSettings& settings) {
  return 2 * int(std::lround(0.5 * settings.nodesPerSide * settings.fixedPointRefinement));
}

double spectralMemory_bytes(const SpectralOceanSettings& settings) {
  const double n2 = double(settings.nodesPerSide) * settings.nodesPerSide, bands = settings.velocityBands;
  const double m = fixedNodesOf(settings), pairs = std::floor((3 + 7 * bands + 1) / 2);
  // Per FFT node: the rest-position surface (6 floats) and, at rest
  // positions, each band's velocity, acceleration and elevation (7 floats);
  // the waves (amplitude, frequency, band: 25 bytes), the draw's wavenumbers
  // (8) and the FFT buffers (the phasors, 16, and 8 per pair of fields),
  // with one transform's scratch that the pairs share (about 8 bytes a node).
  const double surface = 24 * n2, lagrangian = 28 * bands * n2,
               waves = (49 + 8 * pairs) * n2 + double(Fft2d::scratchBytes(settings.nodesPerSide));
  // kTileLevels tile times at most (four in steady play; the rest made when
  // a window needs them).
  const double levels = double(kTileLevels);
  if (settings.query == SpectralQuery::ParticleSolve) return levels * (surface + lagrangian) + waves;
  // The tile times of fixed points (elevation and rate; a band's velocity,
  // acceleration, velocity rate and elevation, 10 floats),
  // and one scratch level of rest-position tiles for the resampling (its
  // bands' floats padded to whole cache lines, bandStride).
  const double scratch = surface + 4 * double(bandStride(std::size_t(bands))) * n2;
  return levels * (surface + m * m * (8 + 40 * bands)) + scratch + waves;
}

SpectralOceanSettings checkedSpectralSettings(const WaveSpectrum& spectrum, SpectralOceanSettings settings) {
  checkSpectrum(spectrum);
  std::ostringstream s;
  if (!(settings.gravity_mps2 > 0 && std::isfinite(settings.gravity_mps2)))
    fail(s << "SpectralOceanSettings::gravity_mps2 is " << settings.gravity_mps2
           << " m/s^2: it must be positive and finite");
  // Seas break at a seventh of their wavelength (Michell, Phil. Mag. 36,
  // 1893); an Hs above the peak wavelength is no sea, and folds the
  // choppy surface beyond any particle the resampling could find.
  const double peakWavelength_m = wavelength_m(spectrum.peakAngularFrequency_radps(), settings.gravity_mps2);
  if (!(spectrum.significantWaveHeight_m <= peakWavelength_m))
    fail(s << "WaveSpectrum::significantWaveHeight_m is " << spectrum.significantWaveHeight_m
           << " m: it must be at most the peak wavelength g Tp^2 / (2 pi), " << peakWavelength_m
           << " m (seas break at about a seventh of it)");
  if (settings.nodesPerSide < 16 || settings.nodesPerSide > 1024 || settings.nodesPerSide % 2 != 0)
    fail(s << "SpectralOceanSettings::nodesPerSide is " << settings.nodesPerSide
           << ": it must be even and in [16, 1024]");
  if (settings.tileSize_m == 0) settings.tileSize_m = defaultTileSize_m(spectrum, settings.gravity_mps2);
  if (!(settings.tileSize_m > 0 && std::isfinite(settings.tileSize_m)))
    fail(s << "SpectralOceanSettings::tileSize_m is " << settings.tileSize_m
           << " m: it must be positive and finite (or 0 for 6 peak wavelengths)");
  checkEnums(settings);
  checkRanges(settings);
  const double bytes = spectralMemory_bytes(settings);
  if (bytes > kMaxSpectralMemory_bytes)
    fail(s << "SpectralOceanSettings::nodesPerSide " << settings.nodesPerSide << ", velocityBands "
           << settings.velocityBands << " and fixedPointRefinement " << settings.fixedPointRefinement << " need "
           << bytes / 1e9 << " GB of tiles, above the bound of " << kMaxSpectralMemory_bytes / 1e9
           << " GB (docs/waves.md, \"Bounds\")");
  return settings;
}

void checkSpectralWaves(const SpectralWaves& waves, const WaveSpectrum& spectrum,
                        const SpectralOceanSettings& settings) {
  std::ostringstream s;
  if (!(waves.variance_m2 > 0)) {
    // Which setting leaves the tile empty: its wavelengths, 4 cells to L,
    // beside the spectrum's, or a spreading narrower than its directions.
    const double g = settings.gravity_mps2, wp = spectrum.peakAngularFrequency_radps();
    const double shortest_m = wavelength_m(settings.maxFrequencyRatio * wp, g);
    const double longest_m = wavelength_m(kLowestFrequencyRatio * wp, g);
    const double cells4_m = 4 * settings.tileSize_m / settings.nodesPerSide;
    if (settings.tileSize_m < shortest_m || cells4_m > longest_m)
      fail(s << "SpectralOceanSettings::tileSize_m is " << settings.tileSize_m << " m: the tile holds no wave of "
             << "the spectrum: it holds wavelengths from " << cells4_m << " m (4 cells) to " << settings.tileSize_m
             << " m, the spectrum's lie between " << shortest_m << " and " << longest_m
             << " m (0 picks 6 peak wavelengths, " << kDefaultTileWavelengths * wavelength_m(wp, g) << " m)");
    fail(s << "SpectralOceanSettings::spreadingExponent is " << settings.spreadingExponent
           << ": the tile holds no wave: the spreading is narrower than the directions of its grid of "
           << "wavevectors (a larger tileSize_m or a smaller exponent)");
  }
  double elevation = 0, velocity = 0, acceleration = 0;
  for (std::size_t q = 0; q < waves.amplitude_m.size(); ++q) {
    const double a = std::abs(waves.amplitude_m[q]), w = waves.angularFrequency_radps[q];
    elevation += a;
    velocity += a * w;
    acceleration += a * w * w;
  }
  if (!(std::max({elevation, velocity, acceleration}) <= kMaxWaveSum))
    fail(s << "WaveSpectrum::significantWaveHeight_m is " << spectrum.significantWaveHeight_m
           << " m: the tile's waves sum to " << elevation << " m, " << velocity << " m/s and " << acceleration
           << " m/s^2 at most, beyond the float tiles' bound of " << kMaxWaveSum);
}

double maxSpectralWindow_s(const SpectralWaves& waves) {
  // The Hermite blend errs on a wave by at most a w^4 dt^4 / 384 (docs/waves.md,
  // "Bounds"); over the tile's random phases the errors add as the waves
  // do: their significant value is 4 sqrt(sum (a w^4)^2 / 2) dt^4 / 384.
  // The choppy displacement errs by as much, and a query, which finds the
  // particle displaced onto its point, turns it into a height error of the
  // slope times lambda times it: the bound grows by 1 + lambda S, S the
  // significant slope 4 sqrt(sum (k a)^2 / 2).
  double sum = 0, slope2 = 0;
  const int n = waves.nodes;
  const double dk_radpm = 2 * kPi / waves.tile_m;
  for (std::size_t q = 0; q < waves.amplitude_m.size(); ++q) {
    const double w2 = waves.angularFrequency_radps[q] * waves.angularFrequency_radps[q];
    const double a2 = std::norm(waves.amplitude_m[q]);
    sum += a2 * w2 * w2 * w2 * w2 / 2;
    const int east = int(q % std::size_t(n)), north = int(q / std::size_t(n));
    const double ke = dk_radpm * (east < n / 2 ? east : east - n), kn = dk_radpm * (north < n / 2 ? north : north - n);
    slope2 += a2 * (ke * ke + kn * kn) / 2;
  }
  const double amplification = 1 + waves.choppiness * 4 * std::sqrt(slope2);
  const double hs_m = 4 * std::sqrt(waves.variance_m2), bound_m = kMaxWindowError * hs_m;
  return sum > 0 ? std::sqrt(std::sqrt(384 * bound_m / (4 * std::sqrt(sum) * amplification))) : INFINITY;
}

}  // namespace keel::KEEL_ABI::detail
