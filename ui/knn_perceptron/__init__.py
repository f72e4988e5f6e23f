"""The Kernel perceptron & k-NN page: the dual perceptron stepped mistake by mistake beside
the SVM, and k-NN (Euclidean or through the kernel) with 1-NN's Voronoi cells."""
