"""Line and word differences between texts."""
