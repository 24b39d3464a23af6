"""kumo.autograd.datasets: Chainer's ``chainer.datasets`` for kumo arrays."""
from kumo.autograd.datasets._basic import (ConcatenatedDataset, DictDataset, SubDataset, TransformDataset,
                                           TupleDataset, get_cross_validation_datasets,
                                           get_cross_validation_datasets_random, split_dataset, split_dataset_n,
                                           split_dataset_n_random, split_dataset_random)
from kumo.autograd.datasets._image import (ImageDataset, LabeledImageDataset, LabeledZippedImageDataset,
                                           MultiZippedImageDataset, ZippedImageDataset, get_digits)

__all__ = ["TupleDataset", "DictDataset", "SubDataset", "split_dataset", "split_dataset_random", "split_dataset_n",
           "split_dataset_n_random", "get_cross_validation_datasets", "get_cross_validation_datasets_random",
           "TransformDataset", "ConcatenatedDataset", "ImageDataset", "LabeledImageDataset", "ZippedImageDataset",
           "LabeledZippedImageDataset", "MultiZippedImageDataset", "get_digits"]
