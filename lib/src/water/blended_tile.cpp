// The published spectral tiles blended in time whole, once a time for every
// thread: a fleet's threads ask the same time of the same tiles, and each
// blending its own copy of the planes read both published tiles whole
// once a thread. docs/waves.md, "Spectral ocean".

#include "water/blended_tile.hpp"

#include "grow.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <mutex>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

/// Tile nodes past the tile's edge that a blended tile also holds (its
/// first columns and rows again), so that a block that crosses the edge by
/// up to this many is read in place.
constexpr std::size_t kBlendedMargin = 16;

/// The largest plane blended whole [btScalars], 64 MB of floats: the bands'
/// velocities of a tile of 512 nodes at the default refinement and bands
/// fit, of 1,024 do not (both planes take 1.7 MB at the default 128
/// nodes). Larger planes are blended block by block, as for a lone boat.
constexpr std::size_t kMaxBlendedPlane = std::size_t(1) << 24;

/// A plane is blended whole once a thread's grids at one time ask this many
/// times its values: its blend reads every tile node of both published
/// tiles, a block's only the nodes under its grid, so a plane read about
/// once over (1,000 full-detail boats' patches) would cost as much memory
/// traffic as it saves blends.
constexpr std::size_t kBlendedReads = 2;

/// The times whose planes an ocean keeps at once: a thread reads one time's
/// at a time, so a fleet's threads between two steps read two, and another
/// fleet at its own time one or two more. A thread that finds every set
/// read at other times blends its own.
constexpr std::size_t kSharedTimes = 4;

}  // namespace

/// Where a shared plane is: not blended, being blended by one thread, or
/// ready to read.
enum class PlaneState : unsigned char { Empty, Blending, Ready };

/// One time's planes, blended by the first thread that wanted each, read by
/// the threads that pin it. Its fields change only under
/// SharedBlends::mutex, a plane's values only by the one thread that marked
/// it Blending; it is rekeyed only when no thread pins it, so that a
/// pinned set's ready planes are read without the lock.
struct SharedTile {
  BlendKey key;
  int pins = 0;  ///< threads reading it
  PlaneState e = PlaneState::Empty, v = PlaneState::Empty;
  std::vector<btScalar> elevation, velocity;
};

struct SharedBlends {
  std::mutex mutex;
  std::array<SharedTile, kSharedTimes> tiles;
  std::size_t planesBlended = 0;  ///< for tests: the blends are shared

  /// The set holding the snapshot's time, or one no thread reads taken for
  /// it, pinned; null when every set is read at other times.
  SharedTile* pin(const Snapshot& s) {
    SharedTile* free = nullptr;
    for (SharedTile& tile : tiles) {
      if (tile.key.holds(s)) {
        ++tile.pins;
        return &tile;
      }
      if (tile.pins == 0 && free == nullptr) free = &tile;
    }
    if (free == nullptr) return nullptr;
    free->key.set(s);
    free->e = free->v = PlaneState::Empty;
    free->pins = 1;
    return free;
  }
};

std::shared_ptr<SharedBlends> makeSharedBlends() { return std::make_shared<SharedBlends>(); }

std::size_t sharedPlaneBlends(const SpectralOceanState& state) {
  const std::lock_guard lock(state.blends->mutex);
  return state.blends->planesBlended;
}

bool BlendKey::holds(const Snapshot& s) const {
  const auto same = [](float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); };
  const TimeWeights& w = s.weights;
  return publication == s.state->publication && level0 == s.level0 && level1 == s.level1 &&
         same(weights.value0, w.value0) && same(weights.value1, w.value1) && same(weights.slope0, w.slope0) &&
         same(weights.slope1, w.slope1);
}

void BlendKey::set(const Snapshot& s) {
  publication = s.state->publication;
  level0 = s.level0;
  level1 = s.level1;
  weights = s.weights;
}

namespace {

/// The planes' side [nodes] and row strides [btScalars].
struct PlaneShape {
  std::size_t side, strideE, strideV;
};

PlaneShape planeShape(const SpectralGridJob& job) {
  const std::size_t side = std::size_t(job.snapshot.state->fixedNodes) + kBlendedMargin;
  return {side, spectralGridPadded(side), spectralGridPadded(side * 3 * job.bands)};
}

/// Room for the planes asked (`blendE`, `blendV`) in `elevation` and
/// `velocity`: rows of the planes' padding, and a vector past the last for
/// the kernel's whole-vector reads.
void growPlanes(const SpectralGridJob& job, bool blendE, bool blendV, std::vector<btScalar>& elevation,
                std::vector<btScalar>& velocity) {
  const PlaneShape shape = planeShape(job);
  if (blendE) growTo(elevation, shape.side * shape.strideE + kSpectralGridLanes);
  if (blendV) growTo(velocity, shape.side * shape.strideV + kSpectralGridLanes);
}

/// The job's time's planes into `elevation_m` and `velocity_mps` (each
/// unless null), grown by growPlanes.
void blendWhole(const SpectralGridJob& job, btScalar* elevation_m, btScalar* velocity_mps) {
  SpectralGridJob whole = job;
  whole.x0 = whole.y0 = 0;
  whole.width = whole.height = planeShape(job).side;
  whole.bands = velocity_mps != nullptr ? job.bands : 0;
  spectralBlend(whole, elevation_m, velocity_mps);
}

}  // namespace

void BlendedTile::unpin() {
  if (pinned_ != nullptr) {
    const std::lock_guard lock(shared_->mutex);
    --pinned_->pins;
    pinned_ = nullptr;
  }
  shared_.reset();  // a destroyed ocean's planes go with the last thread that read them
}

void BlendedTile::blend(const SpectralGridJob& job, bool blendE, bool blendV) {
  SharedBlends& blends = *job.snapshot.state->blends;
  std::unique_lock lock(blends.mutex);
  if (pinned_ == nullptr) {
    pinned_ = blends.pin(job.snapshot);
    if (pinned_ != nullptr) shared_ = job.snapshot.state->blends;  // kept for unpin, past the ocean
  }
  if (pinned_ == nullptr) {  // every set read at other times
    lock.unlock();
    growPlanes(job, blendE, blendV, ownE_, ownV_);
    blendWhole(job, blendE ? ownE_.data() : nullptr, blendV ? ownV_.data() : nullptr);
    if (blendE) elevation_ = ownE_.data();
    if (blendV) velocity_ = ownV_.data();
    return;
  }
  // The first thread to want a plane at this time blends it, outside the
  // lock; the others meanwhile blend their own blocks and ask again at their
  // next job.
  SharedTile& tile = *pinned_;
  const bool e = blendE && tile.e == PlaneState::Empty, v = blendV && tile.v == PlaneState::Empty;
  if (e || v) {
    growPlanes(job, e, v, tile.elevation, tile.velocity);
    btScalar* const elevation_m = e ? tile.elevation.data() : nullptr;
    btScalar* const velocity_mps = v ? tile.velocity.data() : nullptr;
    if (e) tile.e = PlaneState::Blending;
    if (v) tile.v = PlaneState::Blending;
    blends.planesBlended += std::size_t(e) + std::size_t(v);
    lock.unlock();
    blendWhole(job, elevation_m, velocity_mps);
    lock.lock();
    if (e) tile.e = PlaneState::Ready;
    if (v) tile.v = PlaneState::Ready;
  }
  if (blendE && tile.e == PlaneState::Ready) elevation_ = tile.elevation.data();
  if (blendV && tile.v == PlaneState::Ready) velocity_ = tile.velocity.data();
}

void BlendedTile::use(SpectralGridJob& job) {
  const Snapshot& s = job.snapshot;
  if (s.single) return;  // no blend
  if (!key_.holds(s)) {
    unpin();
    key_.set(s);
    lastAskedE_ = std::exchange(askedE_, 0);
    lastAskedV_ = std::exchange(askedV_, 0);
    elevation_ = velocity_ = nullptr;
  }
  const std::size_t fields = 3 * job.bands;
  const bool heights = job.heights_m != nullptr;
  if (heights) askedE_ += job.width * job.height;
  if (fields > 0 && job.velocityRows > 0) {
    // The block rows under the rows with velocities.
    const std::size_t last = job.velocityRow0 + job.velocityRows - 1;
    askedV_ += job.width * std::size_t(job.rows[last].first - job.rows[job.velocityRow0].first + 4) * fields;
  }
  const PlaneShape shape = planeShape(job);
  const std::size_t planeE = shape.side * shape.side, planeV = planeE * fields;
  const bool blendE = heights && elevation_ == nullptr && std::max(askedE_, lastAskedE_) >= kBlendedReads * planeE &&
                      planeE <= kMaxBlendedPlane;
  const bool blendV = fields > 0 && velocity_ == nullptr && std::max(askedV_, lastAskedV_) >= kBlendedReads * planeV &&
                      planeV <= kMaxBlendedPlane;
  const bool useE = heights && (elevation_ != nullptr || blendE), useV = fields > 0 && (velocity_ != nullptr || blendV);
  if (!useE && !useV) return;  // no plane for it
  // The block's first node in the tile.
  const auto n = std::int64_t(s.state->fixedNodes);
  const double inverseN = 1 / double(n);
  const auto column = std::size_t(wrapIndex(job.x0, n, inverseN));
  const auto row = std::size_t(wrapIndex(job.y0, n, inverseN));
  if (column + job.width > shape.side || row + job.height > shape.side) return;  // past the margin
  if (blendE || blendV) blend(job, blendE, blendV);
  if (heights && elevation_ != nullptr) {
    job.blendedE = elevation_ + row * shape.strideE + column;
    job.blendedStrideE = shape.strideE;
  }
  if (fields > 0 && velocity_ != nullptr) {
    job.blendedV = velocity_ + row * shape.strideV + column * fields;
    job.blendedStrideV = shape.strideV;
  }
}

std::size_t BlendedTile::bytes() const {
  std::size_t planes = (ownE_.capacity() + ownV_.capacity()) * sizeof(btScalar);
  if (pinned_ != nullptr) {
    const std::lock_guard lock(shared_->mutex);
    planes += (pinned_->elevation.capacity() + pinned_->velocity.capacity()) * sizeof(btScalar);
  }
  return planes;
}

}  // namespace keel::KEEL_ABI::detail
