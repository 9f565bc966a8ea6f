// keel::WaterFleet: every boat's substep in parallel (oneTBB, or the game's
// job system), applied in order.
#include <keel/water_fleet.hpp>

#include "internals.hpp"
#include "math/parallel.hpp"
#include "math/prefetch.hpp"
#include "substep/substep.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <tbb/task_arena.h>

#if defined(__linux__)
#include <sys/mman.h>
#ifdef MADV_HUGEPAGE
#define KEEL_FLEET_HUGE_PAGES
#endif
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace keel::KEEL_ABI {

struct WaterFleet::Threads {
  explicit Threads(int count) : arena(count == 0 ? tbb::task_arena::automatic : count) {}
  tbb::task_arena arena;
};

namespace {

/// A boat's State (WaterAction::State, opaque in the public header).
using BoatStateOf = std::remove_reference_t<decltype(Internals::state(std::declval<WaterAction&>()))>;

constexpr std::size_t kSlotAlignment = std::max(
    {alignof(WaterAction), alignof(BoatStateOf), alignof(std::max_align_t), std::size_t(64)});  // a cache line
constexpr std::size_t slotRound(std::size_t bytes) {
  return (bytes + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment;
}

constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;  // x86-64's, and most arm64 kernels'

/// Gives a block of slots back: to the kernel (mapped, `bytes` long) or to
/// operator delete (bytes 0).
struct FreeBlock {
  std::size_t bytes = 0;
  void operator()(std::byte* block) const noexcept {
#ifdef KEEL_FLEET_HUGE_PAGES
    if (bytes) {
      (void)::munmap(block, bytes);
      return;
    }
#endif
    ::operator delete(block, std::align_val_t(kSlotAlignment));
  }
};
using BlockMemory = std::unique_ptr<std::byte, FreeBlock>;

/// Memory for a block of slots, `bytes` long or (rounded up) longer. On
/// Linux a block of a huge page or more is whole huge pages on a huge
/// page's boundary, mapped afresh and advised to be backed by huge pages
/// before anything touches it: the kernel gives a huge page when a page of
/// the range is first touched, and memory malloc reuses may already have
/// small ones. The advice is only advice: with no huge page to give, or
/// transparent huge pages off, the block keeps small pages.
BlockMemory blockMemory(std::size_t& bytes) {
#ifdef KEEL_FLEET_HUGE_PAGES
  if (bytes >= kHugePageBytes) {
    bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    // A huge page more than asked for, the ends cut so that the rest starts on a boundary.
    void* mapped = ::mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    auto* start = static_cast<std::byte*>(mapped);
    const std::size_t lead = (kHugePageBytes - reinterpret_cast<std::uintptr_t>(start) % kHugePageBytes) %
                             kHugePageBytes;
    if (lead) (void)::munmap(start, lead);
    (void)::munmap(start + lead + bytes, kHugePageBytes - lead);
    (void)::madvise(start + lead, bytes, MADV_HUGEPAGE);
    return BlockMemory(start + lead, FreeBlock{bytes});
  }
#endif
  return BlockMemory(static_cast<std::byte*>(::operator new(bytes, std::align_val_t(kSlotAlignment))), FreeBlock{});
}

}  // namespace

/// The boats' memory: each boat's WaterAction and its state side by side in
/// a slot, the slots in blocks. A game that makes each body just before its
/// boat then finds its bodies next to each other in memory, as when it makes
/// them all first: a block comes once per 64 boats or more (large enough
/// that malloc maps it apart from small objects), where an allocation per
/// boat would lie between every two bodies and spread the bodies Bullet's
/// step walks over more cache lines and pages (docs/performance.md, "Many
/// boats"). Each block holds twice the slots of the one before, so that a
/// fleet of thousands lies in a few blocks of whole huge pages
/// (docs/model.md §3, "The fleet's memory"): a step visits every boat, and with
/// small pages each boat's slot is a page or two of its own, more than the
/// processor's address cache (TLB) holds. A block is taken slot by slot, so
/// that the memory its boats do not use yet is never touched. A removed
/// boat's slot goes to the next boat added; the blocks go with the fleet.
struct WaterFleet::Slots {
  static constexpr std::size_t kStateOffset = slotRound(sizeof(WaterAction));
  static constexpr std::size_t kSlotBytes = slotRound(kStateOffset + sizeof(BoatStateOf));
  static constexpr std::size_t kFirstBlockSlots = 64;
  static constexpr std::size_t kLargestBlockSlots = kFirstBlockSlots << 6;

  struct Block {
    BlockMemory memory;
    std::size_t slots;
  };

  /// A slot's storage, to build a WaterAction in (its state at kStateOffset).
  void* take() {
    if (freeSlots) {
      void* slot = freeSlots;
      freeSlots = freeSlots->next;
      return slot;
    }
    if (blocks.empty() || taken == blocks.back().slots) grow();
    return blocks.back().memory.get() + kSlotBytes * taken++;
  }
  /// Takes back a slot whose WaterAction has been destroyed.
  void give(void* slot) noexcept { freeSlots = ::new (slot) Free{freeSlots}; }
  /// Destroys a boat made in a slot, and takes the slot back.
  void destroy(WaterAction* boat) noexcept {
    boat->~WaterAction();
    give(boat);
  }

  /// A new block, twice the last up to kLargestBlockSlots (and to whole
  /// huge pages: see blockMemory).
  void grow() {
    if (blocks.size() == blocks.capacity()) blocks.reserve(2 * blocks.size() + 1);  // no throw past here
    std::size_t bytes = kSlotBytes *
                        (blocks.empty() ? kFirstBlockSlots : std::min(2 * blocks.back().slots, kLargestBlockSlots));
    BlockMemory memory = blockMemory(bytes);
    blocks.push_back({std::move(memory), bytes / kSlotBytes});
    taken = 0;
  }

  struct Free {
    Free* next;
  };
  Free* freeSlots = nullptr;  // each holding the next
  std::vector<Block> blocks;
  std::size_t taken = 0;  // of the last block's slots, in address order
};

// Inline, so that they add no calls of their own to the substep's path (the
// library is built position-independent, where an exported function that is
// not inline may be interposed, and so is not inlined).
inline bool Internals::leftWorld(WaterAction& boat, const btCollisionWorld* world) { return boat.leftWorld(world); }
inline bool Internals::computeForces(WaterAction& boat, btScalar timeStep_s) { return boat.computeForces(timeStep_s); }
inline void Internals::applyForces(WaterAction& boat) { boat.applyForces(); }

WaterFleet::WaterFleet(std::shared_ptr<const WaterSurface> surface, int threads)
    : surface_(std::move(surface)), slots_(std::make_unique<Slots>()) {
  if (!surface_) throw std::invalid_argument("keel::WaterFleet: water surface is null");
  setThreadCount(threads);
}

WaterFleet::~WaterFleet() {
  for (WaterAction* boat : boats_) slots_->destroy(boat);
}

void WaterFleet::setThreadCount(int threads) {
  if (threads < 0 || threads > kMaxFleetThreads)
    throw std::invalid_argument("keel::WaterFleet: thread count is " + std::to_string(threads) + ": must be 0 to " +
                                std::to_string(kMaxFleetThreads) + " (0: every hardware thread)");
  threads_ = threads;
  pool_ = threads == 1 ? nullptr : std::make_unique<Threads>(threads);
}

WaterAction& WaterFleet::add(btRigidBody* body, std::shared_ptr<const Hull> hull, const HydrostaticSettings& settings) {
  // Room first, so that nothing can throw once the boat is made.
  if (boats_.size() == boats_.capacity()) boats_.reserve(2 * boats_.size() + 1);
  computed_.reserve(boats_.capacity());
  std::byte* slot = static_cast<std::byte*>(slots_->take());
  WaterAction* boat = nullptr;
  try {
    boat = Internals::makeBoat(slot, slot + Slots::kStateOffset, body, std::move(hull), surface_, settings);
    boat->setProfiling(profiling_);
  } catch (...) {
    if (boat)
      slots_->destroy(boat);
    else
      slots_->give(slot);
    throw;
  }
  boat->setTime(time_s_);
  boats_.push_back(boat);
  computed_.push_back(0);
  bodiesChecked_ = false;
  return *boat;
}

void WaterFleet::setSurface(std::shared_ptr<const WaterSurface> surface) {
  if (!surface) throw std::invalid_argument("keel::WaterFleet::setSurface: water surface is null");
  for (const auto& boat : boats_) boat->setSurface(surface);
  surface_ = std::move(surface);
}

bool WaterFleet::remove(const btRigidBody* body) {
  const auto it = std::find_if(boats_.begin(), boats_.end(), [&](const WaterAction* b) { return b->body() == body; });
  if (it == boats_.end()) return false;
  computed_.erase(computed_.begin() + (it - boats_.begin()));
  WaterAction* boat = *it;
  boats_.erase(it);
  slots_->destroy(boat);
  bodiesChecked_ = false;
  return true;
}

void WaterFleet::checkBodies() {
  std::vector<const btRigidBody*> bodies;
  bodies.reserve(boats_.size());
  for (const auto& b : boats_) bodies.push_back(b->body());
  std::sort(bodies.begin(), bodies.end());
  bodiesShared_ = std::adjacent_find(bodies.begin(), bodies.end()) != bodies.end();
  bodiesChecked_ = true;
}

void WaterFleet::step(btScalar timeStep_s, const btCollisionWorld* world) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = boats_.size();
  if (!bodiesChecked_) checkBodies();  // after boats came or went
  // Each boat's clock, computation and (with a body of its own) velocity
  // change in one visit: a fleet of thousands does not fit the caches, and
  // each pass over it would fetch every boat's memory again.
  const bool applyInPlace = !bodiesShared_;
  auto compute = [&](std::size_t i) {
    WaterAction& boat = *boats_[i];
    boat.setTime(time_s_);
    const bool apply = !Internals::leftWorld(boat, world) && Internals::computeForces(boat, timeStep_s);
    if (!applyInPlace)
      computed_[i] = apply ? 1 : 0;
    else if (apply)
      Internals::applyForces(boat);
  };
  // Nor does it fit them between two steps: each boat's slot (its action
  // and state) and its body are asked for a boat or two ahead, the body
  // once the slot that points to it has come, so that their lines arrive
  // while the boat before runs rather than as it reads each
  // (math/prefetch.hpp). Within a range, which one thread runs in order.
  auto computeRange = [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      if (i + 2 < last) detail::prefetch<Slots::kSlotBytes>(boats_[i + 2]);
      if (i + 1 < last) {
        detail::prefetch<sizeof(btRigidBody)>(boats_[i + 1]->body());
        // And the memory its last substep worked in beyond its slot (a far
        // boat's column arrays and patch samples, on the heap).
        const detail::MemoryHint& hint = Internals::state(*boats_[i + 1]).memoryHint;
        for (std::size_t r = 0; r < hint.count; ++r) detail::prefetch(hint.at[r], hint.bytes[r]);
      }
      compute(i);
    }
  };
  if (pool_ && n > 1) {
    // Each boat is one task: boats differ in hull size and wetness, so let
    // the scheduler balance them (grain 1). In the fleet's arena (its thread
    // count), or on the game's job system when it set one (keel/jobs.hpp).
    pool_->arena.execute([&] { detail::parallelForRanges(0, n, computeRange); });
  } else {
    computeRange(0, n);
  }
  // Boats sharing a body apply serially, always in the same order.
  if (!applyInPlace)
    for (std::size_t i = 0; i < n; ++i)
      if (computed_[i]) Internals::applyForces(*boats_[i]);
  lastUpdate_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void WaterFleet::updateAction(btCollisionWorld* world, btScalar timeStep_s) {
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    for (auto& b : boats_) b->updateAction(nullptr, timeStep_s);  // each boat reports the bad step
    return;
  }
  time_s_ += double(timeStep_s);
  step(timeStep_s, world);  // which sets each boat's clock
}

void WaterFleet::prime(btScalar timeStep_s) {
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    for (auto& b : boats_) b->prime(timeStep_s);
    return;
  }
  step(timeStep_s, nullptr);  // no world to check the bodies against, as WaterAction::prime
}

void WaterFleet::setProfiling(bool on) {
  profiling_ = on;
  for (auto& b : boats_) b->setProfiling(on);
}

SubstepProfile WaterFleet::profile() const {
  SubstepProfile sum;
  for (const auto& b : boats_) sum += b->profile();
  return sum;
}

void WaterFleet::clearProfile() {
  for (auto& b : boats_) b->clearProfile();
}

void WaterFleet::debugDraw(btIDebugDraw* drawer) {
  for (auto& b : boats_) b->debugDraw(drawer);
}

}  // namespace keel::KEEL_ABI
