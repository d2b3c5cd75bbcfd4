#version 150 core
// Ground grid: fade out towards the grid's edge.

in vec4 color;
in vec3 gridPosition;
out vec4 fragColor;

uniform vec3 gridCenter;
uniform float gridRadius;

void main()
{
    float d = length(gridPosition.xz - gridCenter.xz) / max(gridRadius, 1e-6);
    float fade = clamp(1.0 - d * d, 0.0, 1.0);
    fragColor = vec4(color.rgb, color.a * fade);
}
