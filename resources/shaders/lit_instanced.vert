#version 150 core
// Lit mesh material, vertex stage for instanced meshes (GLSL 1.50 core, OpenGL 3.2): the mesh is
// a unit shape drawn once per instance, each instance placing it with the affine transform whose
// rows are instanceRow0..2 ([R·S | t]) and tinting it with instanceColor. Normals go through the
// inverse transpose, which for R·S is (R·S)·S⁻²: the squared column lengths give S².

in vec3 vertexPosition;
in vec3 vertexNormal;
in vec4 vertexColor;
in vec4 instanceRow0;
in vec4 instanceRow1;
in vec4 instanceRow2;
in vec4 instanceColor;

out vec3 worldPosition;
out vec3 worldNormal;
out vec4 color;

uniform mat4 modelMatrix;
uniform mat3 modelNormalMatrix;
uniform mat4 mvp;

void main()
{
    vec4 p = vec4(vertexPosition, 1.0);
    vec4 placed = vec4(dot(instanceRow0, p), dot(instanceRow1, p), dot(instanceRow2, p), 1.0);
    vec3 scale2 = instanceRow0.xyz * instanceRow0.xyz + instanceRow1.xyz * instanceRow1.xyz +
                  instanceRow2.xyz * instanceRow2.xyz;
    vec3 n = vertexNormal / max(scale2, vec3(1e-12));
    vec3 placedNormal = vec3(dot(instanceRow0.xyz, n), dot(instanceRow1.xyz, n),
                             dot(instanceRow2.xyz, n));
    worldPosition = (modelMatrix * placed).xyz;
    worldNormal = modelNormalMatrix * placedNormal;
    color = vertexColor * instanceColor;
    gl_Position = mvp * placed;
}
