"""Word pools for the synthetic reading list: names, topics and the phrases abstracts are made of.

Each topic has its own vocabulary so TF-IDF similarity, topic keywords and category
inference see the same kind of signal as on real abstracts.
"""

from __future__ import annotations

FIRST_NAMES = """
Wei Jun Xin Yi Jing Lei Hao Yu Chen Min Qing Tao Fang Bo Hui Peng Lin Yang Zhen Yan Rui Kai Ming
Xiao Jie Li Ning Shuang Yujia Zhihang Mengdi Guoping Leyuan Qinggang Pengcheng Su-Xi Jing-Yuan
Ha-Min Moon-Hyun Tai-Myoung Ji-Hoon Seung-Woo Hyun-Jin Takeshi Yuki Haruto Kenji Aiko Sakura
Alexander Matthew Sergei Maria Anna Elena Laura Sofia Julia David Daniel Michael James Robert
Thomas Lucas Marco Paolo Giulia Luca Pierre Camille Hugo Jan Lars Ingrid Sven Olga Ivan Dmitri
Priya Arjun Rahul Ananya Vikram Deepak Kavya Rohan Sanjay Aisha Omar Fatima Karim Leila Yusuf
Carlos Diego Ana Lucia Mateo Valentina Joao Beatriz Emily Sarah Jessica Andrew Kevin Brian Rachel
Noah Ethan Olivia Chloe Samuel Nathan Grace Hannah Zoe Felix Jonas Lena Nina Tobias Miriam Ali
""".split()

MIDDLE_INITIALS = "A B C D E F G H J K L M P R S T W".split()

LAST_NAMES = """
Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Liang Xie
Tang Han Cao Deng Feng Zeng Peng Xiao Cheng Yuan Jiang Sui Long Zhai Xing Kim Lee Park Choi Jung
Kang Cho Yoon Jang Lim Son Chung Tanaka Suzuki Takahashi Watanabe Ito Yamamoto Nakamura Kobayashi
Smith Johnson Brown Miller Davis Wilson Anderson Taylor Moore Martin Jackson White Harris Clark
Lewis Walker Hall Allen Young King Wright Scott Green Baker Adams Nelson Hill Campbell Mitchell
Roberts Carter Phillips Evans Turner Torres Parker Collins Edwards Stewart Morris Murphy Cook Rogers
Morgan Cooper Peterson Reed Bailey Bell Kelly Howard Ward Cox Richardson Wood Watson Brooks Bennett
Gray James Hughes Price Sanders Myers Long Ross Foster Berg Ardi Alyamkin Rossi Russo Ferrari Bianchi
Romano Colombo Ricci Marino Greco Bruno Gallo Conti Muller Schmidt Schneider Fischer Weber Meyer
Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Neumann Schwarz Braun Zimmermann Hartmann
Dubois Durand Lefebvre Moreau Laurent Simon Michel Garcia Rodriguez Martinez Lopez Gonzalez Perez
Sanchez Ramirez Flores Rivera Gomez Diaz Cruz Morales Ortiz Gutierrez Chavez Ramos Ruiz Alvarez
Sharma Patel Gupta Singh Kumar Reddy Rao Iyer Nair Menon Das Bose Chatterjee Mukherjee Banerjee
Ivanov Petrov Smirnov Volkov Sokolov Popov Lebedev Kozlov Novak Horvath Nagy Kowalski Nowak Jensen
Hansen Nielsen Larsen Andersen Johansson Karlsson Nilsson Eriksson Larsson Olsen Berger Hofer
""".split()

SYSTEM_HEADS = """
Pipe Tensor Flux Hydra Sparse Turbo Deep Fast Mega Nano Quant Graph Echo Vision Lingo Photon Stella
Swift Astra Helix Vector Kernel Shard Orbit Prism Nova Zephyr Cobalt Ember Atlas Vortex Lumen Quill
""".split()
SYSTEM_TAILS = """
Flow Stitch Weave Forge Shard Mind Net Scope Pilot Lens Tune Core Spark Bridge Mesh Fuse Gate Serve
""".split()
SYSTEM_SUFFIXES = ["", "", "", "X", "2", "3", "Lite", "Pro", "DB", "ML", "GPU", "RL"]

ADJECTIVES = """
scalable efficient adaptive hierarchical lightweight robust asynchronous sparse unified
fine-grained elastic communication-efficient memory-efficient dynamic heterogeneity-aware
learned self-supervised interpretable practical fault-tolerant low-latency energy-efficient
""".split()

BASELINES = """
PyTorch TensorFlow XLA TVM GPipe PipeDream DeepSpeed Megatron-LM Horovod ResNet-50 BERT-base
ViT-B/16 Faster R-CNN YOLOv5 Transformer-XL T5 GPT-2 LSTM XGBoost FAISS BM25 DenseNet
""".split()

# fmt: off
TOPICS: dict[str, dict[str, list[str]]] = {
    "systems": {
        "categories": ["cs.DC", "cs.PF", "cs.AR", "cs.DC", "cs.LG"],
        "task": [
            "distributed training", "kernel fusion", "cluster scheduling", "pipeline parallelism",
            "gradient compression", "operator placement", "memory management for large models",
            "collective communication", "FPGA acceleration", "tensor program compilation",
            "model serving", "checkpointing", "parameter synchronization", "GPU sharing",
        ],
        "object": [
            "GPU clusters", "large language models", "recommendation models", "transformer training",
            "heterogeneous accelerators", "multi-tenant data centers", "edge devices", "TPU pods",
        ],
        "method": ["scheduler", "compiler", "runtime", "planner", "framework", "cost model", "code generator"],
        "problem": [
            "communication overhead", "straggler workers", "off-chip memory traffic", "load imbalance",
            "pipeline bubbles", "kernel launch overhead", "device memory pressure", "network contention",
        ],
        "technique": [
            "a cost model learned from profiles", "overlapping computation with communication",
            "operator fusion across layer boundaries", "adaptive micro-batch scheduling",
            "hierarchical all-reduce", "activation recomputation", "topology-aware placement",
            "just-in-time code generation", "asynchronous parameter updates", "memory swapping to host",
        ],
        "dataset": ["a production cluster", "a 128-GPU testbed", "MLPerf workloads", "a 64-node cluster"],
        "gain": ["speedup", "higher throughput", "lower latency", "fewer GPU hours"],
        "score": ["GPU utilization", "scaling efficiency"],
    },
    "efficient": {
        "categories": ["cs.LG", "cs.NE", "cs.LG", "stat.ML"],
        "task": [
            "structured pruning", "quantization-aware training", "dynamic inference", "federated learning",
            "knowledge distillation", "neural architecture search", "low-rank adaptation",
            "sparse training", "early-exit networks", "continual learning",
        ],
        "object": [
            "convolutional networks", "vision transformers", "mobile devices", "non-IID clients",
            "residual networks", "language models", "low-power hardware",
        ],
        "method": ["regularizer", "training scheme", "search algorithm", "distillation method", "optimizer"],
        "problem": [
            "accuracy degradation", "client drift", "redundant computation", "overfitting to local data",
            "the cost of retraining", "catastrophic forgetting", "irregular sparsity",
        ],
        "technique": [
            "a variance-aware regularization term", "a once-for-all supernetwork", "mixed-precision search",
            "cross-layer grouping of filters", "layer-wise sensitivity analysis", "a gating network",
            "feature-level distillation", "gradient-based importance scores", "hypernetwork weight sharing",
        ],
        "dataset": ["ImageNet", "CIFAR-10", "CIFAR-100", "FEMNIST", "Tiny-ImageNet"],
        "gain": ["fewer parameters", "fewer FLOPs", "speedup", "smaller models"],
        "score": ["top-1 accuracy", "accuracy"],
    },
    "vision": {
        "categories": ["cs.CV", "cs.CV", "eess.IV"],
        "task": [
            "scene text detection", "crowd counting", "medical image segmentation", "object detection",
            "image super-resolution", "video action recognition", "ultrasound image classification",
            "semantic segmentation", "3D point cloud registration", "visual tracking",
        ],
        "object": [
            "natural scenes", "dense crowds", "ultrasound images", "aerial imagery", "surveillance video",
            "low-light images", "street scenes",
        ],
        "method": ["network", "detector", "backbone", "encoder-decoder", "attention module"],
        "problem": [
            "scale variation", "occlusion", "annotation cost", "domain shift", "blurry boundaries",
            "texture ambiguity", "small objects",
        ],
        "technique": [
            "a learnable wavelet branch", "multi-scale feature aggregation", "deformable convolutions",
            "a transformer decoder", "contrastive pre-training", "density map regression",
            "a lightweight attention block", "pseudo-label refinement",
        ],
        "dataset": ["COCO", "ICDAR 2015", "ShanghaiTech", "Cityscapes", "ADE20K", "Kinetics-400"],
        "gain": ["faster inference", "fewer labels"],
        "score": ["accuracy", "mAP", "F-measure", "mIoU"],
    },
    "language": {
        "categories": ["cs.CL", "cs.IR", "cs.CL"],
        "task": [
            "query rewriting", "question matching", "sponsored search", "dialogue generation",
            "named entity recognition", "dense retrieval", "machine translation", "text classification",
            "conversational recommendation", "document ranking",
        ],
        "object": [
            "e-commerce search", "long documents", "multilingual corpora", "customer service logs",
            "product catalogs", "open-domain questions",
        ],
        "method": ["ranking model", "language model", "retriever", "encoder", "generation model"],
        "problem": [
            "heavy-tailed queries", "vocabulary mismatch", "exposure bias", "label noise",
            "long-range dependencies", "sparse relevance labels",
        ],
        "technique": [
            "padding-free transformer kernels", "contrastive query embeddings", "hard negative mining",
            "a revenue-aware training objective", "retrieval-augmented decoding", "curriculum fine-tuning",
            "cross-lingual alignment", "a two-tower architecture",
        ],
        "dataset": ["GLUE", "SQuAD", "MS MARCO", "Natural Questions", "a month of search traffic"],
        "gain": ["faster decoding", "lower serving cost"],
        "score": ["accuracy", "F1", "recall at 10"],
    },
    "physics": {
        "categories": ["physics.optics", "astro-ph.HE", "physics.soc-ph", "nlin.AO", "physics.optics"],
        "task": [
            "supercontinuum generation", "cluster synchronization", "gamma-ray burst detection",
            "mode locking in fiber lasers", "soliton propagation", "pulse compression",
        ],
        "object": [
            "fiber lasers", "networked oscillators", "CubeSat detectors", "photonic crystal fibers",
            "coupled dynamical systems",
        ],
        "method": ["model", "detector", "cavity design", "analytical framework", "simulation method"],
        "problem": ["dispersion", "noise amplification", "background radiation", "weak coupling"],
        "technique": [
            "a nonlinear Schrodinger model", "spectral analysis of the Laplacian", "a scintillator array",
            "a dispersion-managed cavity", "master stability functions",
        ],
        "dataset": ["numerical simulations", "laboratory measurements", "in-orbit observations"],
        "gain": ["wider bandwidth", "higher sensitivity", "lower noise"],
        "score": ["coupling efficiency", "detection efficiency"],
    },
}
# fmt: on
TOPIC_WEIGHTS = {"systems": 30, "efficient": 25, "vision": 20, "language": 17, "physics": 8}

# Technical noun phrases are built from these, so the text has a long tail of rare terms
# as real abstracts do (a search index and TF-IDF both depend on that tail).
MODIFIERS = """
gradient activation attention token layer channel bandwidth latency memory cache queue graph kernel
tensor batch sample feature spectral temporal spatial query label loss weight parameter frequency
phase pulse device node cluster stream shard replica partition operator embedding density boundary
texture context prompt retrieval routing placement schedule precision entropy variance residual
pipeline buffer register warp thread socket packet session vocabulary anchor region patch frame
""".split()
TECHNIQUE_NOUNS = """
estimation reordering partitioning caching compression pruning sampling calibration aggregation
prediction balancing profiling tiling reuse sharing alignment matching refinement decomposition
regularization normalization smoothing filtering encoding hashing search replay rewriting splitting
fusion prefetching coalescing batching ranking clustering distillation masking
""".split()
PROBLEM_NOUNS = """
skew imbalance drift contention sparsity redundancy noise fragmentation staleness overhead
divergence bias collapse interference underutilization mismatch leakage starvation jitter
""".split()
