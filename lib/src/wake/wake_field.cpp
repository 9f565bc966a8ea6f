// keel::WakeField: its settings, its modes, the boats it is forced by, and
// update(). The update's work is wake_update.cpp's, the queries
// wake_query.cpp's (docs/wakes.md).
#include <keel/wake_field.hpp>
#include <keel/water_action.hpp>
#include <keel/water_fleet.hpp>

#include "internals.hpp"
#include "math/det_math.hpp"
#include "substep/substep.hpp"
#include "wake/wake_data.hpp"
#include "water/query_costs.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace keel::KEEL_ABI {
namespace detail {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr int kMinNodes = 16, kMaxNodes = 2048;
/// The relative difference of two clocks that are the same time computed
/// two ways (a few hundred double roundings).
constexpr double kTimeSlack_s = 1e-12;

[[noreturn]] void refuse(const char* field, double value, const char* bound) {
  std::ostringstream s;
  s << "keel::WakeField: WakeFieldSettings::" << field << " = " << value << " " << bound;
  throw std::invalid_argument(s.str());
}

void requirePositive(const char* field, double value) {
  if (!std::isfinite(value) || value <= 0) refuse(field, value, "must be finite and > 0");
}

/// The window's corner for a centre, on the cells' lattice, so that moving
/// the window moves the waves by whole cells.
double corner(double centre_m, double size_m, double cell_m) {
  return cell_m * std::round((centre_m - size_m / 2) / cell_m);
}

/// The modes with `|k| <= pi / (2 cell)` (4 cells a wave), k != 0, and the
/// bands: geometric between the window's longest and shortest waves, each
/// with its geometric mean wavenumber.
void makeModes(WakeFieldData& d) {
  const int band = d.n / 4;
  const double size = double(d.n) * d.cell_m, base = kTwoPi / size, g = d.settings.gravity_mps2;
  const double ratio = double(band);  // shortest / longest wavenumber held along an axis
  std::array<double, kMaxDepthBands + 1> edge{};
  for (int b = 0; b <= d.bands; ++b) edge[std::size_t(b)] = base * det::pow(ratio, double(b) / d.bands);
  for (int b = 0; b < d.bands; ++b)
    d.bandK_radpm[std::size_t(b)] = std::sqrt(edge[std::size_t(b)] * edge[std::size_t(b) + 1]);
  for (int j = 0; j < d.n; ++j)
    for (int i = 0; i < d.n; ++i) {
      const int si = d.fft.signedIndex(i), sj = d.fft.signedIndex(j);
      const int r2 = si * si + sj * sj;
      if (r2 == 0 || r2 > band * band) continue;
      WakeMode m;
      m.index = std::uint32_t(j * d.n + i);
      m.mirror = std::uint32_t(((d.n - j) % d.n) * d.n + (d.n - i) % d.n);
      const double k = base * std::sqrt(double(r2));
      m.k_radpm = float(k);
      m.omega_radps = float(std::sqrt(g * k));
      int b = 0;
      while (b + 1 < d.bands && k > edge[std::size_t(b) + 1]) ++b;
      m.band = std::uint8_t(b);
      d.modes.push_back(m);
    }
}

/// The absorbing rate along an axis: zero inside, rising as the square of
/// the depth into the band to `6 c_g / width` at the edge, c_g the group
/// velocity of a wave a quarter of the window long: such a wave crossing
/// the bands of two edges (the window is periodic) keeps about e^-4 of
/// its amplitude (docs/wakes.md measures the reflection).
void makeSponge(WakeFieldData& d) {
  const double size = double(d.n) * d.cell_m, width = d.settings.spongeWidth_m;
  const double k = 4 * kTwoPi / size, groupVelocity = 0.5 * std::sqrt(d.settings.gravity_mps2 / k);
  const double peak = 6 * groupVelocity / width;
  d.spongeRate_ps.assign(std::size_t(d.n), 0);
  d.spongeKeep.assign(std::size_t(d.n), 1);
  for (int i = 0; i < d.n; ++i) {
    const double fromEdge = double(std::min(i, d.n - i)) * d.cell_m;
    const double r = std::max(0.0, 1 - fromEdge / width);
    d.spongeRate_ps[std::size_t(i)] = peak * r * r;
  }
}

/// cos and sin of 2 pi p / N, with Keel's own maths: the phases that move
/// the window by whole cells (moveWindow, wake_update.cpp).
void makeTwiddles(WakeFieldData& d) {
  d.twiddleCos.resize(std::size_t(d.n));
  d.twiddleSin.resize(std::size_t(d.n));
  for (int p = 0; p < d.n; ++p) {
    const det::SinCos sc = det::sinCos(kTwoPi * p / d.n);
    d.twiddleCos[std::size_t(p)] = sc.cosine;
    d.twiddleSin[std::size_t(p)] = sc.sine;
  }
}

int nodeCount(const WakeFieldSettings& s) {
  requirePositive("size_m", s.size_m);
  requirePositive("cellSize_m", s.cellSize_m);
  if (s.cellSize_m > s.size_m / kMinNodes) refuse("cellSize_m", s.cellSize_m, "must be at most size_m / 16");
  const double n = 2 * std::round(s.size_m / s.cellSize_m / 2);
  if (n > kMaxNodes) refuse("cellSize_m", s.cellSize_m, "gives more than 2048 nodes per side (size_m / cellSize_m)");
  return int(n);
}

}  // namespace

WakeFieldSettings checkedSettings(const WakeFieldSettings& in) {
  WakeFieldSettings s = in;
  const int n = nodeCount(s);
  s.cellSize_m = s.size_m / n;
  if (!std::isfinite(s.centreEast_m)) refuse("centreEast_m", s.centreEast_m, "must be finite");
  if (!std::isfinite(s.centreNorth_m)) refuse("centreNorth_m", s.centreNorth_m, "must be finite");
  if (s.spongeWidth_m == 0) s.spongeWidth_m = s.size_m / 8;
  if (!std::isfinite(s.spongeWidth_m) || s.spongeWidth_m < 4 * s.cellSize_m || s.spongeWidth_m > s.size_m / 4)
    refuse("spongeWidth_m", s.spongeWidth_m, "must be 0 (size_m / 8) or from 4 cells to size_m / 4");
  if (s.depthBands < 1 || s.depthBands > kMaxDepthBands) refuse("depthBands", s.depthBands, "must be 1 to 4");
  requirePositive("gravity_mps2", s.gravity_mps2);
  requirePositive("waterDensity_kgpm3", s.waterDensity_kgpm3);
  return s;
}

WakeFieldData::WakeFieldData(std::shared_ptr<const WaterSurface> ambientSurface, const WakeFieldSettings& in)
    : ambient(std::move(ambientSurface)),
      settings(checkedSettings(in)),
      n(nodeCount(settings)),
      bands(settings.depthBands),
      cell_m(settings.cellSize_m),
      fft(n, n / 4) {
  makeModes(*this);
  makeSponge(*this);
  makeTwiddles(*this);
  cosStep.assign(modes.size(), 1);
  sinStep.assign(modes.size(), 0);
  eta.assign(nodes(), FftComplex{0, 0});
  phi.assign(nodes(), FftComplex{0, 0});
  forcing.assign(nodes(), FftComplex{0, 0});
  rowUsed.assign(std::size_t(n), 0);
  westEdge_m = wantedWest_m = corner(settings.centreEast_m, settings.size_m, cell_m);
  southEdge_m = wantedSouth_m = corner(settings.centreNorth_m, settings.size_m, cell_m);
  for (WakeTiles& t : tiles) {
    t.westEdge_m = westEdge_m;
    t.southEdge_m = southEdge_m;
    t.height_m.assign(nodes(), 0);
    t.bandHeight_m.assign(std::size_t(bands) * nodes(), 0);
    t.bandPotential_m2ps.assign(std::size_t(bands) * nodes(), 0);
  }
  work.assign(std::size_t(bands) + 1, std::vector<FftComplex>(nodes()));
  for (int b = 0; b <= bands; ++b) scratch.push_back(fft.scratch());
}

}  // namespace detail

WakeField::WakeField(std::shared_ptr<const WaterSurface> ambient, const WakeFieldSettings& settings) {
  if (!ambient) throw std::invalid_argument("keel::WakeField: the ambient surface is null");
  data_ = std::make_unique<Data>(std::move(ambient), settings);
}

WakeField::~WakeField() {
  for (const std::weak_ptr<detail::WakeLink>& weak : data_->boats)
    if (const std::shared_ptr<detail::WakeLink> link = weak.lock()) link->fieldAlive = false;
}

void WakeField::add(WaterAction& boat) {
  std::shared_ptr<detail::WakeLink>& link = Internals::state(boat).wakeLink;
  if (link && link->fieldAlive && link->field != this)
    throw std::invalid_argument("keel::WakeField::add: the boat makes waves in another WakeField; remove() it there");
  if (link && link->field == this && link->fieldAlive) return;
  link = std::make_shared<detail::WakeLink>();
  link->ambient = data_->ambient;
  link->hull = boat.hull();
  link->field = this;
  link->window = data_->window();
  data_->boats.push_back(link);
}

void WakeField::add(WaterFleet& fleet) {
  for (std::size_t i = 0; i < fleet.size(); ++i) add(fleet.boat(i));
}

bool WakeField::remove(WaterAction& boat) {
  std::shared_ptr<detail::WakeLink>& link = Internals::state(boat).wakeLink;
  if (!link || link->field != this) return false;
  std::erase_if(data_->boats, [&](const std::weak_ptr<detail::WakeLink>& w) { return w.lock() == link; });
  link.reset();
  return true;
}

std::size_t WakeField::boatCount() const {
  std::size_t alive = 0;
  for (const std::weak_ptr<detail::WakeLink>& w : data_->boats) alive += w.expired() ? 0 : 1;
  return alive;
}

void WakeField::update(double from_s, double to_s) {
  detail::WakeFieldData& d = *data_;
  if (!std::isfinite(from_s) || !std::isfinite(to_s) || to_s < from_s) {
    std::ostringstream s;
    s << "keel::WakeField::update(" << from_s << ", " << to_s << "): the times must be finite and from <= to";
    throw std::invalid_argument(s.str());
  }
  // A frame's start computed otherwise than the last frame's end (f dt
  // against (f - 1) dt + dt) may fall a rounding step before it: taken as
  // the field's time.
  if (d.started && from_s < d.time_s && d.time_s - from_s <= detail::kTimeSlack_s * std::max(1.0, std::abs(d.time_s)))
    from_s = std::min(d.time_s, to_s);
  if (d.started && from_s < d.time_s) {
    std::ostringstream s;
    s << "keel::WakeField::update(" << from_s << ", " << to_s << "): starts before the field's time " << d.time_s
      << " s; a field cannot run backwards (roll back with restoreState)";
    throw std::invalid_argument(s.str());
  }
  detail::advanceField(d, from_s, to_s);
}

void WakeField::setCentre(double east_m, double north_m) {
  if (!std::isfinite(east_m) || !std::isfinite(north_m))
    throw std::invalid_argument("keel::WakeField::setCentre: the centre must be finite");
  detail::WakeFieldData& d = *data_;
  d.wantedWest_m = detail::corner(east_m, d.settings.size_m, d.cell_m);
  d.wantedSouth_m = detail::corner(north_m, d.settings.size_m, d.cell_m);
}

bool WakeField::contains(double east_m, double north_m) const { return data_->window().contains(east_m, north_m); }
double WakeField::energy_J() const { return data_->energy_J(); }
double WakeField::absorbedEnergy_J() const { return data_->absorbed_J; }
double WakeField::sourceWork_J() const { return data_->sourceWork_J; }
double WakeField::time_s() const { return data_->time_s; }
const WakeFieldSettings& WakeField::settings() const { return data_->settings; }
int WakeField::nodesPerSide() const { return data_->n; }
std::span<const double> WakeField::bandWavenumbers_radpm() const {
  return {data_->bandK_radpm.data(), std::size_t(data_->bands)};
}
const std::shared_ptr<const WaterSurface>& WakeField::ambient() const { return data_->ambient; }

QueryCost WakeField::queryCost() const {
  const WaterSurface& ambient = *data_->ambient;
  const QueryCost a = ambient.queryCost();
  // The field's own, measured over flat water with two bands
  // (keel_bench_query_cost's kWakeFieldTwoBands): its heights read the
  // bands' sum, its velocities each band.
  const QueryCost& f = detail::kWakeFieldTwoBands;
  const double bands = double(data_->bands) / 2;
  // The ambient surface's velocities at a grid's nodes: its grid's, its
  // one velocity, or its point queries at every node and depth.
  const bool grid = a.gridNodeVelocity_ns > 0;
  const double node_ns = grid || ambient.velocityIsUniform() ? a.gridNodeVelocity_ns : a.velocity_ns;
  const double surface_ns = grid && a.gridNodeSurfaceVelocity_ns > 0 ? a.gridNodeSurfaceVelocity_ns : node_ns;
  return {.height_ns = a.height_ns + f.height_ns,
          .gridNode_ns = a.gridNode_ns + f.gridNode_ns,
          .velocity_ns = a.velocity_ns + f.velocity_ns * bands,
          .heightAndVelocity_ns = a.heightAndVelocity_ns + f.heightAndVelocity_ns * bands,
          .gridNodeVelocity_ns = node_ns + f.gridNodeVelocity_ns * bands,
          .gridNodeSurfaceVelocity_ns = surface_ns + f.gridNodeSurfaceVelocity_ns * bands,
          .batchPoints = a.batchPoints};
}

}  // namespace keel::KEEL_ABI
