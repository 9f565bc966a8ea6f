#include "water_renderer.hpp"

#include "scene_builder.hpp"

#include <OgreEntity.h>
#include <OgreHardwareBufferManager.h>
#include <OgreManualObject.h>
#include <OgreMeshManager.h>
#include <OgreSceneNode.h>
#include <OgreSubMesh.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace demo {
namespace {

/// Grid cells over which the outermost ring fades to the mean level.
constexpr int kFadeCells = 12;
/// How far the flat skirt reaches [m]: past the fog's end, to the horizon.
constexpr float kSkirt_m = 2500;

constexpr std::size_t kFloatsPerVertex = 7;
/// Shading normals are steepened by this factor so that a harbour's low
/// waves read on screen; the drawn heights themselves are exact.
constexpr float kSlopeGain = 3.0f;  // position 3, normal 3, packed colour 1

/// The water's own colour (light scattered back from inside it) in the
/// troughs and on the crests, where it is thinner against the light.
const Ogre::ColourValue kDeep(0.02f, 0.13f, 0.19f);
const Ogre::ColourValue kCrest(0.06f, 0.30f, 0.34f);
const Ogre::ColourValue kFoam(0.86f, 0.90f, 0.92f);
/// Corners of the skirt: inner ones on the grid's edge, outer ones far out.
constexpr int kSkirtVertices = 8;

float packColour(const Ogre::ColourValue& c) {
  const Ogre::uint32 rgba = c.getAsBYTE();
  float f;
  std::memcpy(&f, &rgba, sizeof f);
  return f;
}

}  // namespace

WaterRenderer::WaterRenderer(Ogre::SceneManager& scene, double cell_m, double radius_m) {
  // As a patch is sized for a hull: the footprint [c - R, c + R] starts
  // anywhere inside a cell, so it spans floor(2R / cell) + 2 cells.
  side_ = int(std::floor(2.0 * radius_m / cell_m)) + 3;
  radius_m_ = radius_m;
  grid_ = {.cellSize_m = cell_m, .originI = 0, .originJ = 0, .nodesU = side_, .nodesV = side_};
  heights_m_.assign(std::size_t(side_) * std::size_t(side_), 0);
  drawn_m_.assign(std::size_t(side_) * std::size_t(side_), 0);
  vertices_.assign(drawn_m_.size() * kFloatsPerVertex, 0);
  makeMaterial("water", Ogre::ColourValue::White, Lighting::VertexColour, 0.7f, 90);
  createMesh(scene);
  createSkirt(scene);
}

void WaterRenderer::createMesh(Ogre::SceneManager& scene) {
  mesh_ = Ogre::MeshManager::getSingleton().createManual("water/grid", Ogre::RGN_DEFAULT);
  auto* data = new Ogre::VertexData();
  mesh_->sharedVertexData = data;
  data->vertexCount = drawn_m_.size();
  Ogre::VertexDeclaration* decl = data->vertexDeclaration;
  decl->addElement(0, 0, Ogre::VET_FLOAT3, Ogre::VES_POSITION);
  decl->addElement(0, 12, Ogre::VET_FLOAT3, Ogre::VES_NORMAL);
  decl->addElement(0, 24, Ogre::VET_UBYTE4_NORM, Ogre::VES_DIFFUSE);
  auto& buffers = Ogre::HardwareBufferManager::getSingleton();
  buffer_ = buffers.createVertexBuffer(decl->getVertexSize(0), data->vertexCount,
                                       Ogre::HardwareBuffer::HBU_DYNAMIC_WRITE_ONLY_DISCARDABLE);
  data->vertexBufferBinding->setBinding(0, buffer_);

  // Two triangles per cell, split on the (1,0)-(0,1) diagonal exactly as
  // keel::WaterPatch::height interpolates, wound to face up (+y).
  std::vector<Ogre::uint32> indices;
  const auto n = Ogre::uint32(side_);
  for (Ogre::uint32 j = 0; j + 1 < n; ++j)
    for (Ogre::uint32 i = 0; i + 1 < n; ++i) {
      const Ogre::uint32 k00 = j * n + i, k10 = k00 + 1, k01 = k00 + n, k11 = k01 + 1;
      indices.insert(indices.end(), {k00, k01, k10, k11, k10, k01});
    }
  Ogre::SubMesh* sub = mesh_->createSubMesh();
  sub->useSharedVertices = true;
  sub->indexData->indexCount = indices.size();
  sub->indexData->indexBuffer = buffers.createIndexBuffer(Ogre::HardwareIndexBuffer::IT_32BIT, indices.size(),
                                                          Ogre::HardwareBuffer::HBU_STATIC_WRITE_ONLY);
  sub->indexData->indexBuffer->writeData(0, indices.size() * sizeof(Ogre::uint32), indices.data(), true);
  sub->setMaterialName("water");
  // The grid follows the camera: never cull it.
  mesh_->_setBounds(Ogre::AxisAlignedBox::BOX_INFINITE);
  mesh_->load();
  Ogre::Entity* entity = scene.createEntity("water", mesh_);
  entity->setCastShadows(false);
  gridNode_ = scene.getRootSceneNode()->createChildSceneNode();
  gridNode_->attachObject(entity);
}

void WaterRenderer::createSkirt(Ogre::SceneManager& scene) {
  // A flat square ring from the grid's edge to the horizon, rebuilt each
  // frame (eight vertices) around the grid and coloured for the viewer.
  skirt_ = scene.createManualObject("water/skirt");
  skirt_->setCastShadows(false);
  skirt_->setDynamic(true);
  skirt_->begin("water", Ogre::RenderOperation::OT_TRIANGLE_LIST);
  for (int k = 0; k < kSkirtVertices; ++k) {
    skirt_->position(0, 0, 0);
    skirt_->normal(0, 1, 0);
    skirt_->colour(kDeep);
  }
  for (Ogre::uint32 k = 0; k < 4; ++k) {
    const Ogre::uint32 i0 = 2 * k, o0 = i0 + 1, i1 = (2 * k + 2) % 8, o1 = i1 + 1;
    skirt_->quad(i0, o0, o1, i1);
  }
  skirt_->end();
  skirtNode_ = scene.getRootSceneNode()->createChildSceneNode();
  skirtNode_->attachObject(skirt_);
}

void WaterRenderer::updateSkirt(const Ogre::Vector3& eye, double x0_m, double z0_m) {
  const float inner = float((side_ - 1) * grid_.cellSize_m);
  const float x0 = float(x0_m), z0 = float(z0_m);
  const float in[4][2] = {{x0, z0}, {x0, z0 + inner}, {x0 + inner, z0 + inner}, {x0 + inner, z0}};
  const float out[4][2] = {{x0 - kSkirt_m, z0 - kSkirt_m},
                           {x0 - kSkirt_m, z0 + inner + kSkirt_m},
                           {x0 + inner + kSkirt_m, z0 + inner + kSkirt_m},
                           {x0 + inner + kSkirt_m, z0 - kSkirt_m}};
  skirt_->beginUpdate(0);
  for (int k = 0; k < 4; ++k)
    for (const auto& c : {in[k], out[k]}) {
      const Ogre::Vector3 p(c[0], 0, c[1]);
      skirt_->position(p);
      skirt_->normal(Ogre::Vector3::UNIT_Y);
      skirt_->colour(shade(p, Ogre::Vector3::UNIT_Y, 0, eye, 1, 10));
    }
  for (Ogre::uint32 k = 0; k < 4; ++k) {
    const Ogre::uint32 i0 = 2 * k, o0 = i0 + 1, i1 = (2 * k + 2) % 8, o1 = i1 + 1;
    skirt_->quad(i0, o0, o1, i1);
  }
  skirt_->end();
}

void WaterRenderer::setSky(const Ogre::ColourValue& horizon, const Ogre::ColourValue& zenith) {
  horizon_ = horizon;
  zenith_ = zenith;
}

Ogre::ColourValue WaterRenderer::shade(const Ogre::Vector3& p, const Ogre::Vector3& n, float h_m,
                                       const Ogre::Vector3& eye, float crestScale, float foamFrom) const {
  const Ogre::Vector3 view = (eye - p).normalisedCopy();
  const float cosine = std::clamp(view.dotProduct(n), 0.0f, 1.0f);
  // Schlick's approximation of Fresnel reflectance, water (n = 1.33): R0 = 0.02.
  const float fresnel = 0.02f + 0.98f * std::pow(1.0f - cosine, 5.0f);
  // The reflected ray's elevation picks the sky's colour.
  const Ogre::Vector3 reflected = 2 * view.dotProduct(n) * n - view;
  const float up = std::clamp(reflected.y, 0.0f, 1.0f);
  const Ogre::ColourValue sky = horizon_ * (1 - std::sqrt(up)) + zenith_ * std::sqrt(up);
  const float crest = std::clamp(h_m * crestScale, -1.0f, 1.0f) * 0.5f + 0.5f;
  const Ogre::ColourValue body = kDeep * (1 - crest) + kCrest * crest;
  Ogre::ColourValue colour = body * (1 - fresnel) + sky * fresnel;
  const float foam = std::clamp((h_m * crestScale - foamFrom) * 2.5f, 0.0f, 0.8f);
  colour = colour * (1 - foam) + kFoam * foam;
  colour.a = 1;
  return colour;
}

float WaterRenderer::fade(int i, int j) const {
  const int edge = std::min({i, j, side_ - 1 - i, side_ - 1 - j});
  if (edge >= kFadeCells) return 1.0f;
  const float t = float(edge) / kFadeCells;
  return t * t * (3 - 2 * t);
}

void WaterRenderer::update(const keel::WaterSurface& surface, double t_s, double centreX_m, double centreZ_m,
                           int seaState, const Ogre::Vector3& eye) {
  const double cell = grid_.cellSize_m;
  grid_.originI = std::int64_t(std::floor((centreX_m - radius_m_) / cell));
  grid_.originJ = std::int64_t(std::floor((centreZ_m - radius_m_) / cell));
  sample(surface, t_s);
  const auto& samples = heights_m_;
  const double x0 = double(grid_.originI) * cell, z0 = double(grid_.originJ) * cell;
  for (int j = 0; j < side_; ++j)
    for (int i = 0; i < side_; ++i) {
      const std::size_t k = std::size_t(j) * std::size_t(side_) + std::size_t(i);
      drawn_m_[k] = float(samples[k]) * fade(i, j);
    }
  // Wave crests lighten towards foam in rough seas; the scale is the sea's height.
  const float crestScale = 1.0f / std::max(0.15f, 0.25f * float(seaState));
  const float foamFrom = seaState >= 3 ? 0.55f : 10.0f;
  const auto at = [&](int i, int j) {
    return drawn_m_[std::size_t(std::clamp(j, 0, side_ - 1)) * std::size_t(side_) +
                    std::size_t(std::clamp(i, 0, side_ - 1))];
  };
  for (int j = 0; j < side_; ++j)
    for (int i = 0; i < side_; ++i) {
      float* v = &vertices_[(std::size_t(j) * std::size_t(side_) + std::size_t(i)) * kFloatsPerVertex];
      const float h = at(i, j);
      v[0] = float(x0 + i * cell);
      v[1] = h;
      v[2] = float(z0 + j * cell);
      Ogre::Vector3 n(-kSlopeGain * (at(i + 1, j) - at(i - 1, j)) / float(2 * cell), 1.0f,
                      -kSlopeGain * (at(i, j + 1) - at(i, j - 1)) / float(2 * cell));
      n.normalise();
      v[3] = n.x, v[4] = n.y, v[5] = n.z;
      v[6] = packColour(shade(Ogre::Vector3(v[0], v[1], v[2]), n, h, eye, crestScale, foamFrom));
    }
  buffer_->writeData(0, vertices_.size() * sizeof(float), vertices_.data(), true);
  updateSkirt(eye, x0, z0);
}

void WaterRenderer::sample(const keel::WaterSurface& surface, double t_s) {
  if (surface.gridHeights(grid_, t_s, heights_m_.data())) return;
  // No grid query: the nodes' coordinates as the grid gives them, in one batch.
  u_m_.resize(heights_m_.size());
  v_m_.resize(heights_m_.size());
  for (int j = 0; j < side_; ++j)
    for (int i = 0; i < side_; ++i) {
      const std::size_t k = std::size_t(j) * std::size_t(side_) + std::size_t(i);
      u_m_[k] = grid_.u_m(i);
      v_m_[k] = grid_.v_m(j);
    }
  surface.heights(u_m_.data(), v_m_.data(), heights_m_.size(), t_s, heights_m_.data());
}

double WaterRenderer::maxDifference_m(const keel::WaterSurface& surface, double t_s, double x_m, double z_m,
                                      double radius_m, int* nodes) const {
  const double cell = grid_.cellSize_m;
  double worst = 0;
  int count = 0;
  for (int j = 0; j < side_; ++j)
    for (int i = 0; i < side_; ++i) {
      const double x = double(grid_.originI + i) * cell, z = double(grid_.originJ + j) * cell;
      if (std::hypot(x - x_m, z - z_m) > radius_m) continue;
      const double drawn = drawn_m_[std::size_t(j) * std::size_t(side_) + std::size_t(i)];
      worst = std::max(worst, std::abs(drawn - double(surface.height(btScalar(x), btScalar(z), t_s))));
      ++count;
    }
  if (nodes) *nodes = count;
  return worst;
}

}  // namespace demo
