// shaders/scene_layer_first.glsl — scene.frag's "scene_layer.glsl" for the first layer
// (ScenePass::draw): every surface, nearest wins.
const bool kSecondLayer = false;
