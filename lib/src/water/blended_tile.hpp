#pragma once
// Internal to Keel: the published spectral tiles blended in time whole, for
// the grid queries of many boats at one time (spectral_grid.cpp), shared by
// every thread that asks that time. docs/waves.md, "Spectral ocean".

#include "water/spectral_detail.hpp"
#include "water/spectral_grid.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// One time's planes in the ocean's shared planes (blended_tile.cpp).
struct SharedTile;

/// What a blended tile holds: a publication's two tiles and their weights.
struct BlendKey {
  std::uint64_t publication = 0;  ///< 0: nothing
  const SpectralLevel *level0 = nullptr, *level1 = nullptr;
  TimeWeights weights;

  /// The weights compared as bits: a -0 weight can give another zero's sign.
  [[nodiscard]] bool holds(const Snapshot& s) const;
  void set(const Snapshot& s);
};

/// One thread's view of the blended tile at its grid queries' time. The
/// values its jobs ask at one time are counted, and once they reach
/// kBlendedReads times one of the tile's planes (the elevations, or the
/// bands' velocities) the next job takes that whole plane, blended, from
/// the ocean's shared planes at the time (blending it there if no thread
/// has; while another thread blends it, the jobs blend their own blocks),
/// and the jobs after read their blocks from it; a lone boat's few grids
/// never do. When the thread's jobs at the time before asked that
/// many, a fleet's next step, its first job takes the plane. Each node's
/// blend is its own, so the same bits either way.
class BlendedTile {
 public:
  BlendedTile() = default;
  BlendedTile(const BlendedTile&) = delete;
  BlendedTile& operator=(const BlendedTile&) = delete;
  ~BlendedTile() { unpin(); }

  /// Points the job at its block in the blended planes, where they hold it
  /// and have been (or are now) blended; otherwise leaves it to blend its
  /// own block.
  void use(SpectralGridJob& job);
  /// The bytes of the planes this thread reads: its own, or its share of
  /// the ocean's.
  [[nodiscard]] std::size_t bytes() const;

 private:
  /// Lets go of the shared planes this thread reads.
  void unpin();
  /// Makes the planes asked (`blendE`, `blendV`) of the job's time, or
  /// leaves them null while another thread blends them.
  void blend(const SpectralGridJob& job, bool blendE, bool blendV);

  BlendKey key_;
  std::size_t askedE_ = 0, askedV_ = 0;          ///< values the jobs asked since
  std::size_t lastAskedE_ = 0, lastAskedV_ = 0;  ///< those of the time before
  const btScalar* elevation_ = nullptr;          ///< the planes read, kBlendedMargin past the edge
  const btScalar* velocity_ = nullptr;
  /// The ocean's shared planes, kept past the ocean for unpin, and the set
  /// of them this thread reads (null: none).
  std::shared_ptr<SharedBlends> shared_;
  SharedTile* pinned_ = nullptr;
  /// The thread's own planes, when every shared set is read at other times.
  std::vector<btScalar> ownE_, ownV_;
};

/// Whole planes blended into the ocean's shared planes so far (for tests).
[[nodiscard]] std::size_t sharedPlaneBlends(const SpectralOceanState& state);

}  // namespace keel::KEEL_ABI::detail
