// The kernels that keep a vector's selected lanes (kernels/compress-inl.hpp):
// the wet vertices' list and the wake's wet pieces, on every instruction set
// compiled, against the lanes in order, for every mask of a vector's lanes.
#include "kernels/heights.hpp"
#include "kernels/wake_pieces.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keel::test {
namespace {

using detail::kWakePlanes;

/// 256 vectors of 16 lanes: vector m's lanes selected by the bits of m
/// (lane k by bit k % 8), so that every mask of 4 or 8 lanes occurs (and
/// 256 of 16, whose compress is one instruction on AVX-512).
constexpr std::size_t kVectors = 256, kWidth = 16, kCount = kVectors * kWidth;

bool selected(std::size_t i) { return ((i / kWidth) >> (i % 8) & 1u) != 0; }

/// The instruction sets compiled, each made the next dispatch's in turn.
template <class Check>
void onEveryInstructionSet(const Check& check) {
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    check();
  }
  hwy::SetSupportedTargetsForTest(0);
}

TEST(Compress, TheListedVerticesAreTheWetAndStampedInOrder) {
  // Even selected lanes wet, odd ones stamped: both tests of the listing.
  std::vector<btScalar> h(kCount + kWidth, btScalar(1));
  std::vector<std::uint32_t> stamp(kCount + kWidth, 0);
  std::vector<std::uint32_t> expected;
  for (std::size_t i = 0; i < kCount; ++i)
    if (selected(i)) {
      if (i % 2 == 0)
        h[i] = btScalar(-1);
      else
        stamp[i] = 7u;
      expected.push_back(std::uint32_t(i));
    }
  onEveryInstructionSet([&] {
    std::vector<std::uint32_t> out(kCount + detail::kListedPad);
    const std::size_t listed = detail::listVertices(h.data(), stamp.data(), 7u, kCount, out.data());
    ASSERT_EQ(listed, expected.size());
    out.resize(listed);
    EXPECT_EQ(out, expected);
  });
  reportValue("vertices listed of 4096, every mask of 4 and 8 lanes", double(expected.size()));
}

TEST(Compress, TheWakesWetPiecesArePackedInOrder) {
  // Each plane holds the piece's index plus the plane's offset; the depth
  // plane the mean of three corners that sum to three times that.
  std::vector<std::vector<btScalar>> field(9, std::vector<btScalar>(kCount));
  std::vector<btScalar> weight(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    for (std::size_t f = 0; f < 6; ++f) field[f][i] = btScalar(i) + btScalar(0.125) * btScalar(f);
    field[6][i] = field[7][i] = field[8][i] = btScalar(i);
    weight[i] = selected(i) ? btScalar(1) : btScalar(0);
  }
  detail::PieceStream p{};
  p.count = kCount;
  p.gx = field[0].data(), p.gy = field[1].data(), p.gz = field[2].data();
  p.sx = field[3].data(), p.sy = field[4].data(), p.sz = field[5].data();
  p.d0 = field[6].data(), p.d1 = field[7].data(), p.d2 = field[8].data();
  p.weight = weight.data();
  onEveryInstructionSet([&] {
    std::vector<std::vector<btScalar>> planes(kWakePlanes, std::vector<btScalar>(kCount + detail::kPad));
    btScalar* out[kWakePlanes];
    for (std::size_t k = 0; k < kWakePlanes; ++k) out[k] = planes[k].data();
    const std::size_t packed = detail::packWetPieces(p, out, 0);
    std::size_t at = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      if (!selected(i)) continue;
      ASSERT_LT(at, packed);
      for (std::size_t f = 0; f < 6; ++f) ASSERT_EQ(planes[f][at], field[f][i]) << "piece " << i << ", plane " << f;
      ASSERT_EQ(planes[detail::kPieceDepth][at], btScalar(i)) << "piece " << i;
      ++at;
    }
    EXPECT_EQ(packed, at);
  });
}

}  // namespace
}  // namespace keel::test
