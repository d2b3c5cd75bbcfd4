#version 150 core
// Background: vertical gradient (constant along each row).

in float height;
out vec4 fragColor;

uniform vec3 topColor;
uniform vec3 bottomColor;

void main()
{
    fragColor = vec4(mix(bottomColor, topColor, clamp(height, 0.0, 1.0)), 1.0);
}
