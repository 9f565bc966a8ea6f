#pragma once
// The scenes of the determinism tests (determinism_test.cpp, docs/determinism.md):
// every surface Keel ships, each floating four boats fitted out so that
// together they run everything a substep computes.
#include "bit_hash.hpp"
#include "test_hulls.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace keel::test {

/// The scenes' clock: 60 frames a second of 4 substeps each.
inline constexpr double kSceneFrame_s = 1.0 / 60;
inline constexpr int kSceneSubsteps = 4;
inline constexpr btScalar kSceneSubstep_s = btScalar(1.0 / 240);
/// Frames a scene runs; the boats change their level of detail halfway.
inline constexpr int kSceneFrames = 40;

/// One of the surfaces Keel ships, with what a game does to it between
/// frames: 0 flat water with a current, 1 a tilted plane with a current,
/// 2 a FunctionSurface, 3 a SineSumSurface, 4 a GerstnerSurface, 5 a
/// SpectralOcean on fixed-point bicubic tiles, 6 one that solves for the
/// particle on bilinear tiles, 7 a HeightGridSurface fed a snapshot a frame.
class SceneSea {
 public:
  static constexpr int kCount = 8;
  explicit SceneSea(int which);
  [[nodiscard]] const std::shared_ptr<const WaterSurface>& surface() const { return surface_; }
  /// Before the frame from `from_s` to `to_s` [s] on the boats' clock: the
  /// spectral ocean's tiles, the height grid's next snapshot.
  void advance(double from_s, double to_s);

 private:
  std::shared_ptr<const WaterSurface> surface_;
  std::shared_ptr<SpectralOcean> ocean_;
  std::shared_ptr<HeightGridSurface> grid_;
};

/// Four boats on a sea, their bodies in `world`: a WaterFleet on two
/// threads of
///   0 a barge on triangles sampling a patch, with wave pressure and a
///     compartment filling through a hole below its waterline,
///   1 a boat on columns (the far-boat level of detail), on triangles from
///     halfway,
///   2 a buoy on triangles sampling the water directly, with its added mass, colliding with the barge,
/// and 3 a boat of its own WaterAction, on triangles sampling a patch with
/// wind, damping and one water velocity a boat, on columns from halfway.
/// Neither the fleet nor the action is added to the world.
struct SceneBoats {
  SceneBoats(World& world, const std::shared_ptr<const WaterSurface>& surface);
  /// Frame `frame`'s changes of level of detail (none but halfway).
  void beforeFrame(int frame);
  /// Adds to `h` what Keel made of each boat's last substep: its force and
  /// torque, the velocity change it applies, its draft, its status and its
  /// floodwater.
  void hashKeelOutput(Fnv1a& h) const;
  std::vector<btRigidBody*> bodies;  ///< the boats' bodies, as numbered above
  std::unique_ptr<WaterFleet> fleet;
  std::unique_ptr<WaterAction> single;

 private:
  [[nodiscard]] const WaterAction& boat(std::size_t i) const { return i < 3 ? fleet->boat(i) : *single; }
};

}  // namespace keel::test
