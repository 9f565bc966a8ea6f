#pragma once
/// @file water_renderer.hpp
/// Draws the water from the same keel::WaterSurface the boats float on.
///
/// The grid is laid out as a boat's keel::WaterPatch is: snapped to world
/// multiples of the cell size the boats' patches use, asked of the surface
/// as one grid query (WaterSurface::gridHeights, or one batch heights() call
/// when the surface has none) per frame at the physics clock. Its nodes are
/// therefore the very points, and its triangles (split on the same diagonal)
/// the very planes, that Keel cuts the hulls with: what you see is what the
/// boats feel.
/// Only the outermost ring fades to the mean level, to meet a flat skirt that
/// runs to the horizon.

#include <keel/surface_authoring.hpp>
#include <keel/water_surface.hpp>

#include <OgreColourValue.h>
#include <OgreHardwareVertexBuffer.h>
#include <OgreMesh.h>
#include <OgreSceneManager.h>
#include <OgreVector.h>

#include <vector>

namespace demo {

class WaterRenderer {
 public:
  /// A grid of `cell_m` [m] cells reaching `radius_m` [m] from its centre.
  WaterRenderer(Ogre::SceneManager& scene, double cell_m, double radius_m);

  /// The sky the water reflects (horizon and zenith colours).
  void setSky(const Ogre::ColourValue& horizon, const Ogre::ColourValue& zenith);

  /// Samples `surface` at time `t_s` [s] on the grid around world (x, z) [m]
  /// and uploads the vertices, coloured for a viewer at `eye` [m, world]:
  /// the sky's reflection by Fresnel's law over the water's own colour,
  /// lighter on the crests, foam on the highest ones from sea state 3.
  void update(const keel::WaterSurface& surface, double t_s, double centreX_m, double centreZ_m, int seaState,
              const Ogre::Vector3& eye);

  /// Largest |drawn - surface| height [m] over the grid nodes within
  /// `radius_m` of world (x, z): the check that the drawn water is the
  /// water Keel samples (0 unless the fade ring reaches there).
  [[nodiscard]] double maxDifference_m(const keel::WaterSurface& surface, double t_s, double x_m, double z_m,
                                       double radius_m, int* nodes = nullptr) const;

 private:
  void createMesh(Ogre::SceneManager& scene);
  void createSkirt(Ogre::SceneManager& scene);
  [[nodiscard]] float fade(int i, int j) const;
  /// Colour of water of height `h_m` [m] and normal `n` seen from `eye`.
  [[nodiscard]] Ogre::ColourValue shade(const Ogre::Vector3& p, const Ogre::Vector3& n, float h_m,
                                        const Ogre::Vector3& eye, float crestScale, float foamFrom) const;
  void updateSkirt(const Ogre::Vector3& eye, double x0_m, double z0_m);
  /// The surface at the grid's nodes at time `t_s` [s], into heights_m_.
  void sample(const keel::WaterSurface& surface, double t_s);

  keel::WaterGrid grid_;             ///< the nodes, placed around the last update's centre
  double radius_m_ = 0;              ///< the reach from the centre [m]
  std::vector<btScalar> u_m_, v_m_;  ///< the nodes' coordinates, for a surface with no grid query [m]
  std::vector<btScalar> heights_m_;  ///< the surface at the nodes, row-major [m]
  int side_ = 0;
  Ogre::ColourValue horizon_{0.74f, 0.82f, 0.89f};
  Ogre::ColourValue zenith_{0.24f, 0.45f, 0.78f};
  std::vector<float> drawn_m_;   ///< the heights uploaded, row-major like the patch
  std::vector<float> vertices_;  ///< interleaved position, normal, colour scratch
  Ogre::MeshPtr mesh_;
  Ogre::HardwareVertexBufferSharedPtr buffer_;
  Ogre::SceneNode* gridNode_ = nullptr;
  Ogre::SceneNode* skirtNode_ = nullptr;
  Ogre::ManualObject* skirt_ = nullptr;
};

}  // namespace demo
