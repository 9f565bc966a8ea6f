// keel::SpectralOcean's waves: amplitudes drawn from the directional
// spectrum on the tile's grid of wavevectors, and the tiles synthesised from
// them by inverse FFTs (math/fft2d.hpp). docs/waves.md, "Spectral ocean".

#include "math/det_math.hpp"
#include "math/fft2d.hpp"
#include "math/parallel.hpp"
#include "water/spectral_detail.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>

namespace keel::KEEL_ABI::detail {
namespace {

constexpr double kPi = std::numbers::pi;
// Sub-samples per cell side when integrating the spectrum over a cell of
// wavevectors: the JONSWAP peak (width 0.07 omega_p, 0.14 k_p) spans about a
// cell of a 6-wavelength tile, so a cell's energy needs several samples.
constexpr int kCellSamples = 4;
// Real fields of the synthesis at most: 3, and 7 per velocity band.
constexpr std::size_t kMaxFields = 3 + 7 * std::size_t(kMaxVelocityBands);

/// splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): integer arithmetic only, so every machine
/// draws the same numbers.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// A standard complex Gaussian (each part of variance 1) for grid wavevector
/// (m, n): Box-Muller (1958) on two uniforms of the cell's own stream, so a
/// wavevector's draw depends on the seed and (m, n) only, not on N.
std::complex<double> gaussianFor(std::uint64_t seed, int m, int n) {
  const std::uint64_t key = (std::uint64_t(std::uint32_t(m)) << 32) | std::uint32_t(n);
  std::uint64_t state = seed ^ (key * 0xD1B54A32D192ED03ULL);
  const double u1 = double((splitmix64(state) >> 11) + 1) * 0x1p-53;  // (0, 1]
  const double u2 = double(splitmix64(state) >> 11) * 0x1p-53;        // [0, 1)
  const double r = std::sqrt(-2 * det::log(u1));
  const det::SinCos turn = det::sinCos(2 * kPi * u2);
  return {r * turn.cosine, r * turn.sine};
}

/// The directional wavenumber spectrum F(k) [m^4/rad^2]: `S(omega) D(theta)
/// (d omega / dk) / k` with `omega = sqrt(g k)`, so that F's integral over
/// the plane, `dk_x dk_y = k dk dtheta`, is the variance. D is DNV-RP-C205's
/// (2010, §3.5) cos^n spreading with its normalising factor
/// `Gamma(1 + n/2) / (sqrt(pi) Gamma(1/2 + n/2))`, as sampleSeaState uses.
/// The cosine of the angle from the mean direction is `k.d / |k|` (no atan2).
struct DirectionalSpectrum {
  const WaveSpectrum& spectrum;
  det::SinCos meanDirection;
  double exponent, spreadingNorm, gravity_mps2;

  [[nodiscard]] double operator()(double kx, double ky) const {
    const double k = det::hypot(kx, ky);
    if (!(k > 0)) return 0;
    const double c = (kx * meanDirection.cosine + ky * meanDirection.sine) / k;
    if (!(c > 0)) return exponent == 0 && c == 0 ? 0.5 * spreadingNorm * density(k) : 0;
    return spreadingNorm * det::pow(c, exponent) * density(k);
  }
  [[nodiscard]] double density(double k) const {
    const double omega = std::sqrt(gravity_mps2 * k);
    return spectrum.density_m2sprad(omega) * gravity_mps2 / (2 * omega * k);
  }
};

/// Gamma(1 + x) / Gamma(1/2 + x), x >= 0, without lgamma (whose bits are
/// the platform's): from x >= 1000 the asymptotic series
/// `sqrt(x) (1 + 1/(8x) + 1/(128x^2) - 5/(1024x^3) - 21/(32768x^4))`, whose
/// next term, 399 / (262144 x^5), is below 2e-18 of it (Tricomi & Erdelyi,
/// Pacific J. Math. 1(1), 1951); below, the recurrence
/// `r(x) = r(x + 1) (x + 1/2) / (x + 1)` (from Gamma(z + 1) = z Gamma(z)),
/// at most 1000 rounded factors: within 1e-13 of it.
double gammaRatio(double x) {
  double factor = 1;
  for (; x < 1000; x += 1) factor *= (x + 0.5) / (x + 1);
  const double y = 1 / x;
  return factor * std::sqrt(x) * (1 + y * (1.0 / 8 + y * (1.0 / 128 + y * (-5.0 / 1024 + y * (-21.0 / 32768)))));
}

/// Mean of F over the cell of wavevector (kx, ky), side dk.
double cellMean(const DirectionalSpectrum& f, double kx, double ky, double dk) {
  double sum = 0;
  for (int i = 0; i < kCellSamples; ++i)
    for (int j = 0; j < kCellSamples; ++j)
      sum += f(kx + dk * ((i + 0.5) / kCellSamples - 0.5), ky + dk * ((j + 0.5) / kCellSamples - 0.5));
  return sum / (kCellSamples * kCellSamples);
}

/// Band edges geometric between the smallest and the largest wavenumber
/// present; each band's wavenumber is the mean of its waves' k weighted by
/// their velocity variance `a^2 omega^2`, the quantity its decay scales;
/// for the pressure, weighted by their elevation variance `a^2`.
void assignBands(SpectralWaves& w, int bands, const std::vector<double>& wavenumber) {
  double lo = INFINITY, hi = 0;
  for (std::size_t q = 0; q < wavenumber.size(); ++q)
    if (std::norm(w.amplitude_m[q]) > 0) lo = std::min(lo, wavenumber[q]), hi = std::max(hi, wavenumber[q]);
  const auto count = std::size_t(bands);
  std::vector<double> weight(count, 0.0), weighted(count, 0.0), elevation(count, 0.0), elevationWeighted(count, 0.0),
      acceleration(count, 0.0), accelerationWeighted(count, 0.0);
  const double ratio = hi > lo ? det::log(hi / lo) / bands : 1.0;
  for (std::size_t q = 0; q < wavenumber.size(); ++q) {
    if (!(std::norm(w.amplitude_m[q]) > 0)) continue;
    const int b = std::clamp(int(det::log(wavenumber[q] / lo) / ratio), 0, bands - 1);
    w.band[q] = std::uint8_t(b);
    const double e = std::norm(w.amplitude_m[q]) * w.angularFrequency_radps[q] * w.angularFrequency_radps[q];
    weight[std::size_t(b)] += e;
    weighted[std::size_t(b)] += e * wavenumber[q];
    elevation[std::size_t(b)] += std::norm(w.amplitude_m[q]);
    elevationWeighted[std::size_t(b)] += std::norm(w.amplitude_m[q]) * wavenumber[q];
    const double omega2 = w.angularFrequency_radps[q] * w.angularFrequency_radps[q];
    acceleration[std::size_t(b)] += e * omega2;
    accelerationWeighted[std::size_t(b)] += e * omega2 * omega2;
  }
  w.bandWavenumber_radpm.assign(count, 0.0);
  w.bandElevationWavenumber_radpm.assign(count, 0.0);
  w.bandAccelerationFrequency2_rad2ps2.assign(count, 0.0);
  for (std::size_t b = 0; b < count; ++b) {
    const double middle = lo * det::exp(ratio * (double(b) + 0.5));
    w.bandWavenumber_radpm[b] = weight[b] > 0 ? weighted[b] / weight[b] : middle;
    w.bandElevationWavenumber_radpm[b] = elevation[b] > 0 ? elevationWeighted[b] / elevation[b] : middle;
    w.bandAccelerationFrequency2_rad2ps2[b] = acceleration[b] > 0 ? accelerationWeighted[b] / acceleration[b] : 0.0;
  }
}

}  // namespace

SpectralWaves drawSpectralWaves(const WaveSpectrum& spectrum, const SpectralOceanSettings& s) {
  SpectralWaves w;
  const int n = s.nodesPerSide;
  w.nodes = n;
  w.tile_m = s.tileSize_m;
  w.choppiness = s.choppiness;
  const auto count = std::size_t(n) * std::size_t(n);
  w.amplitude_m.assign(count, 0.0);
  w.angularFrequency_radps.assign(count, 0.0);
  w.band.assign(count, 0);
  std::vector<double> wavenumber(count, 0.0);
  const double dk = 2 * kPi / s.tileSize_m;
  const DirectionalSpectrum f{spectrum, det::sinCos(s.meanDirection_rad), s.spreadingExponent,
                              gammaRatio(0.5 * s.spreadingExponent) / std::sqrt(kPi), s.gravity_mps2};
  // The shortest waves kept are 4 cells long (half the Nyquist wavenumber):
  // bilinear interpolation would lose a third of a 2-cell wave.
  const double maxOmega = s.maxFrequencyRatio * spectrum.peakAngularFrequency_radps();
  const double maxK = std::min(maxOmega * maxOmega / s.gravity_mps2, 0.5 * kPi * n / s.tileSize_m);
  for (int iy = 0; iy < n; ++iy) {
    for (int ix = 0; ix < n; ++ix) {
      const int m = ix < n / 2 ? ix : ix - n, l = iy < n / 2 ? iy : iy - n;
      const double kx = dk * m, ky = dk * l, k = det::hypot(kx, ky);
      if (!(k > 0) || k > maxK) continue;
      const double variance = cellMean(f, kx, ky, dk) * dk * dk;
      if (!(variance > 0)) continue;
      const std::size_t q = std::size_t(iy) * std::size_t(n) + std::size_t(ix);
      // E|c|^2 = 2 variance: the wave a cos(theta) has variance a^2 / 2.
      w.amplitude_m[q] = std::sqrt(variance) * gaussianFor(s.seed, m, l);
      w.angularFrequency_radps[q] = std::sqrt(s.gravity_mps2 * k);
      wavenumber[q] = k;
      w.expectedVariance_m2 += variance;
      w.variance_m2 += std::norm(w.amplitude_m[q]) / 2;
    }
  }
  assignBands(w, s.velocityBands, wavenumber);
  return w;
}

// ---------------------------------------------------------------------------
// Synthesis
// ---------------------------------------------------------------------------

// The synthesis's stages: the waves turned to the time, the phasors in
// blocks of rows, one inverse FFT per pair of fields, the tiles' nodes in
// blocks. Blocks keep each stage of a tile computed ahead short.
constexpr int kPhasorBlocks = 4;
constexpr int kScatterBlocks = 2;

/// The FFTs' plan (shared by the threads: immutable), a spectrum buffer per
/// pair of real fields and one transform scratch that the pairs' transforms,
/// one stage at a time, share: the update then writes one scratch's lines,
/// not one per pair, and they stay in the caches from one transform to the
/// next. The waves reach
/// half the grid's Nyquist wavenumber (drawSpectralWaves): indices up to
/// N / 4 along each axis, the band the transforms compute.
struct SpectralSynthesis::Plan {
  explicit Plan(int n) : fft(n, n / 4) {}
  Fft2d fft;
  int fields = 0;
  std::vector<std::complex<double>> now;         // c e^{-i omega t} per grid index
  std::vector<std::vector<FftComplex>> spectra;  // one N * N buffer per pair of fields
  FftScratch scratch;                            // the transform's, one stage at a time
  std::vector<double> phasorWeight;              // stageWeight of each block of phasor rows
};

namespace {

/// Calls `f(ix)` for each column of row `iy` that lies in the FFTs' band
/// along both axes (Fft2d::inBand): none when the row lies outside it.
template <class F>
void eachInBand(const Fft2d& fft, int iy, const F& f) {
  if (!fft.inBand(iy)) return;
  const int n = fft.size(), band = fft.band();
  for (int ix = 0; ix <= band; ++ix) f(ix);
  for (int ix = n - band; ix < n; ++ix) f(ix);
}

}  // namespace

SpectralSynthesis::SpectralSynthesis(const SpectralWaves& waves)
    : waves_(waves), plan_(std::make_unique<Plan>(waves.nodes)) {
  const int n = waves.nodes;
  const auto count = std::size_t(n) * std::size_t(n);
  plan_->fields = 3 + 7 * int(waves.bandWavenumber_radpm.size());
  const auto pairs = std::size_t((plan_->fields + 1) / 2);
  plan_->now.assign(count, 0.0);
  plan_->spectra.assign(pairs, std::vector<FftComplex>(count));
  plan_->scratch = plan_->fft.scratch();
  // A block of phasor rows costs a little per grid index of the band (the
  // zeros where no wave is at q nor -q) and more per index that holds one.
  for (int block = 0; block < kPhasorBlocks; ++block) {
    double visited = 0, holding = 0;
    for (int iy = n * block / kPhasorBlocks; iy < n * (block + 1) / kPhasorBlocks; ++iy)
      eachInBand(plan_->fft, iy, [&](int ix) {
        const std::size_t mirror = std::size_t((n - iy) % n) * std::size_t(n) + std::size_t((n - ix) % n);
        const std::size_t q = std::size_t(iy) * std::size_t(n) + std::size_t(ix);
        visited += 1;
        if (waves.amplitude_m[q] != std::complex<double>{} || waves.amplitude_m[mirror] != std::complex<double>{})
          holding += 1;
      });
    plan_->phasorWeight.push_back(0.074 * visited + 0.38 * holding);
  }
}

SpectralSynthesis::~SpectralSynthesis() = default;

SpectralLevel SpectralSynthesis::makeLevel(bool lagrangian, bool fixed, int fixedNodes) const {
  const auto count = std::size_t(waves_.nodes) * std::size_t(waves_.nodes);
  const std::size_t bands = waves_.bandWavenumber_radpm.size();
  SpectralLevel level;
  level.surface.assign(count, SurfaceNode{});
  if (lagrangian) {
    level.velocity_mps.assign(count * bands * 3, 0.0f);
    level.acceleration_mps2.assign(count * bands * 3, 0.0f);
    level.bandElevation_m.assign(count * bands, 0.0f);
  }
  if (fixed) {
    const auto fixedCount = std::size_t(fixedNodes) * std::size_t(fixedNodes);
    level.fixed.assign(fixedCount, FixedNode{});
    level.fixedVelocity_mps.assign(fixedCount * bands * 3, 0.0f);
    level.fixedAcceleration_mps2.assign(fixedCount * bands * 3, 0.0f);
    level.fixedVelocityRate_mps2.assign(fixedCount * bands * 3, 0.0f);
    level.fixedBandElevation_m.assign(fixedCount * bands, 0.0f);
  }
  return level;
}

namespace {

/// The phasors P_f(q) of every real field f at grid index q: field f is
/// `Re sum_q P_f(q) e^{i q.x}`. With c the wave's complex amplitude now,
/// d its direction, lambda the choppiness (docs/waves.md):
/// elevation c; displacement i lambda d c; per band, velocity lambda omega d c
/// and -i omega c; acceleration -i lambda omega^2 d c and -omega^2 c; then
/// per band its share of the elevation, c (for the pressure below it).
void phasors(const SpectralWaves& w, const std::vector<std::complex<double>>& now, std::size_t q, int ix, int iy,
             std::complex<double>* out, int fields) {
  std::fill(out, out + fields, std::complex<double>{});
  const std::complex<double> c = now[q];
  if (c == std::complex<double>{}) return;
  const int n = w.nodes;
  const double m = ix < n / 2 ? ix : ix - n, l = iy < n / 2 ? iy : iy - n;
  const double norm = det::hypot(m, l);
  const double de = m / norm, dn = l / norm, omega = w.angularFrequency_radps[q], lambda = w.choppiness;
  const std::complex<double> i{0, 1};
  out[0] = c;
  out[1] = i * lambda * de * c;
  out[2] = i * lambda * dn * c;
  const int bands = (fields - 3) / 7;
  const int vb = 3 + 3 * w.band[q], ab = 3 + 3 * bands + 3 * w.band[q];
  out[vb] = lambda * omega * de * c;
  out[vb + 1] = lambda * omega * dn * c;
  out[vb + 2] = -i * omega * c;
  out[ab] = -i * lambda * omega * omega * de * c;
  out[ab + 1] = -i * lambda * omega * omega * dn * c;
  out[ab + 2] = -omega * omega * c;
  out[3 + 6 * bands + w.band[q]] = c;
}

/// Copies the FFTs' fields (field f in the real part of pair f / 2 when f is
/// even, the imaginary part when odd) into the level's node-major tiles (or
/// its `bands`, when it has them), and sums the bands' surface velocities
/// into the surface's time derivatives.
void scatter(const std::vector<std::vector<FftComplex>>& spectra, int fields, std::size_t first, std::size_t last,
             SpectralLevel& level) {
  const std::size_t bands = std::size_t(fields - 3) / 7;
  // Nodes in parallel: each its own copies and sums.
  parallelFor(
      first, last,
      [&](std::size_t j) {
        const auto value = [&](std::size_t f) {
          const FftComplex z = spectra[f / 2][j];
          return f % 2 == 0 ? z.r : z.i;
        };
        SurfaceNode s{value(1), value(2), value(0), 0, 0, 0};
        const bool together = !level.bands.empty();
        float* node = together ? &level.bands[j * bandStride(bands)] : nullptr;
        for (std::size_t b = 0; b < bands; ++b) {
          float* velocity = together ? node + 3 * b : &level.velocity_mps[(j * bands + b) * 3];
          float* acceleration = together ? node + 3 * (bands + b) : &level.acceleration_mps2[(j * bands + b) * 3];
          for (std::size_t axis = 0; axis < 3; ++axis) {
            velocity[axis] = value(3 + 3 * b + axis);
            acceleration[axis] = value(3 + 3 * bands + 3 * b + axis);
          }
          s.east_mps += velocity[0];
          s.north_mps += velocity[1];
          s.elevation_mps += velocity[2];
          (together ? node[6 * bands + b] : level.bandElevation_m[j * bands + b]) = value(3 + 6 * bands + b);
        }
        level.surface[j] = s;
      },
      1024);  // a job system's jobs of 1,024 nodes at least
}

}  // namespace

int SpectralSynthesis::stageCount() const { return 1 + kPhasorBlocks + int(plan_->spectra.size()) + kScatterBlocks; }

double SpectralSynthesis::stageWeight(int stage) const {
  // Measured CPU time of the stages per FFT node, in units of a resampled
  // fixed-point node (keel_bench_waves on the AMD EPYC, 128 nodes, 3 bands).
  const double n2 = double(waves_.nodes) * waves_.nodes;
  const int pairs = int(plan_->spectra.size());
  if (stage == 0) return 0.029 * n2;
  if (stage <= kPhasorBlocks) return plan_->phasorWeight[std::size_t(stage - 1)];
  if (stage <= kPhasorBlocks + pairs) return 0.25 * n2 / pairs;
  return 0.2 * n2 / kScatterBlocks;
}

void SpectralSynthesis::synthesize(double time_s, SpectralLevel& level) {
  for (int stage = 0; stage < stageCount(); ++stage) runStage(stage, time_s, level);
}

void SpectralSynthesis::runStage(int stage, double time_s, SpectralLevel& level) {
  Plan& p = *plan_;
  const int n = waves_.nodes, pairs = int(p.spectra.size());
  if (stage == 0) {
    turnWaves(time_s);
  } else if (stage <= kPhasorBlocks) {
    fillSpectra(n * (stage - 1) / kPhasorBlocks, n * stage / kPhasorBlocks);
  } else if (stage <= kPhasorBlocks + pairs) {
    const auto pair = std::size_t(stage - 1 - kPhasorBlocks);
    p.fft.inverseOfBand(p.spectra[pair].data(), p.scratch);
  } else {
    const auto block = std::size_t(stage - 1 - kPhasorBlocks - pairs), count = level.surface.size();
    scatter(p.spectra, p.fields, count * block / kScatterBlocks, count * (block + 1) / kScatterBlocks, level);
    level.time_s = time_s;
  }
}

void SpectralSynthesis::turnWaves(double time_s) {
  Plan& p = *plan_;
  const auto count = p.now.size();
  for (std::size_t q = 0; q < count; ++q) {
    const std::complex<double> c = waves_.amplitude_m[q];
    if (c == std::complex<double>{}) {
      p.now[q] = c;
      continue;
    }
    const det::SinCos turn = det::sinCos(-waves_.angularFrequency_radps[q] * time_s);
    p.now[q] = c * std::complex<double>{turn.cosine, turn.sine};
  }
}

void SpectralSynthesis::fillSpectra(int firstRow, int lastRow) {
  Plan& p = *plan_;
  const int n = waves_.nodes, fields = p.fields;
  // A real field's Fourier coefficient is (P(q) + conj(P(-q))) / 2; two real
  // fields a, b share one complex FFT as a + i b. Rows in parallel: each
  // coefficient is its own, so the same bits however TBB splits them.
  // Only the band's coefficients are written: the transform takes the
  // others as zero (Fft2d::inverseOfBand), so that the buffers' other
  // entries, which hold the last transform's output, are neither written
  // nor read again.
  const auto fieldCount = std::size_t(fields);
  parallelFor(firstRow, lastRow, [&](int iy) {
    std::array<std::complex<double>, kMaxFields> here, mirror;
    eachInBand(p.fft, iy, [&](int ix) {
      const std::size_t q = std::size_t(iy) * std::size_t(n) + std::size_t(ix);
      const int mx = (n - ix) % n, my = (n - iy) % n;
      const std::size_t m = std::size_t(my) * std::size_t(n) + std::size_t(mx);
      if (p.now[q] == std::complex<double>{} && p.now[m] == std::complex<double>{}) {
        // No wave at q nor -q (most of the band's corners): the zeros the
        // sums below would give.
        for (std::size_t f = 0; f < fieldCount; f += 2) p.spectra[f / 2][q] = {0.0f, 0.0f};
        return;
      }
      phasors(waves_, p.now, q, ix, iy, here.data(), fields);
      phasors(waves_, p.now, m, mx, my, mirror.data(), fields);
      for (std::size_t f = 0; f < fieldCount; f += 2) {
        const std::complex<double> a = 0.5 * (here[f] + std::conj(mirror[f]));
        const std::complex<double> b = f + 1 < fieldCount ? 0.5 * (here[f + 1] + std::conj(mirror[f + 1]))
                                                          : std::complex<double>{};
        const std::complex<double> z = a + std::complex<double>{0, 1} * b;
        p.spectra[f / 2][q] = {float(z.real()), float(z.imag())};
      }
    });
  });
}

}  // namespace keel::KEEL_ABI::detail
