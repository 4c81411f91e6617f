"""Thông điệp tiếng Việt của phần phân tích ván cờ (Vietnamese messages of the review)."""

MESSAGES: dict[str, str] = {
    # người chơi, loại khai cuộc
    "black": "Đen",
    "white": "Trắng",
    "book": "sách khai cuộc",
    "direct": "trực tiếp",
    "indirect": "gián tiếp",
    "opening_name": "{name} (khai cuộc Renju số {number}, {kind})",
    # đánh giá nước đi
    "cls_book": "Theo sách",
    "cls_forced": "Nước bắt buộc",
    "cls_best": "Nước tốt nhất",
    "cls_excellent": "Rất tốt",
    "cls_good": "Tốt",
    "cls_inaccuracy": "Thiếu chính xác",
    "cls_mistake": "Sai lầm",
    "cls_blunder": "Sai lầm nghiêm trọng",
    "cls_missed_win": "Bỏ lỡ thắng",
    "cls_lost": "Thế thua",
    # loại lỗi
    "cat_missed_win": "Bỏ lỡ thắng",
    "cat_missed_threat": "Bỏ sót đe dọa",
    "cat_failed_defence": "Phòng thủ thất bại",
    "cat_passive_play": "Đi bị động (mất thế chủ động)",
    "cat_edge_play": "Đi sát biên",
    # thế cờ
    "threat_five": "năm quân liên tiếp",
    "threat_open_four": "bốn mở",
    "threat_four_three": "thế bốn-ba",
    "threat_four": "đường bốn",
    "threat_double_three": "thế ba-ba",
    "threat_three": "đường ba mở",
    "threat_desc_four": "đường bốn (thành năm tại {squares})",
    "threat_desc_three": "đường ba mở (thành bốn mở tại {squares})",
    "threat_desc_vcf": "đòn đe dọa bằng chuỗi nước bốn ({line})",
    "by_vcf": "bằng chuỗi nước bốn liên tục (VCF)",
    "by_vct": "bằng chuỗi đe dọa liên tục (VCT)",
    "by_search": "bằng đòn ép buộc",
    # giải thích
    "note_book": "{move}: nước đi theo sách khai cuộc ({opening}).",
    "note_five": "Nước {move} tạo thành năm quân liên tiếp: {player} thắng.",
    "note_lost": "{player} đã ở thế thua: dù đi nước nào, {opp} vẫn có đòn thắng.",
    "note_missed_win": "{player} đã có đòn thắng {how}: {line}. Nước {move} bỏ lỡ chiến thắng.",
    "note_failed_defence": (
        "Nước {move} không chặn được {threat} của {opp}; {opp} thắng {how}: {line}."
    ),
    "note_failed_defence_late": (
        "Nước {move} chặn {threat} nhưng không ngăn được đòn tấn công của {opp}: "
        "{opp} vẫn thắng {how}: {line}."
    ),
    "note_missed_threat": "Nước {move} bỏ sót đòn đe dọa của {opp}: {opp} thắng {how}: {line}.",
    "note_passive": "Nước {move} bị động: {best} giữ được thế chủ động với {threat}.",
    "note_edge": "Nước {move} đi sát biên bàn cờ, xa khu vực giao tranh; nên đi {best}.",
    "note_forced_four": "Nước {move} là bắt buộc: điểm duy nhất chặn đường bốn của {opp}.",
    "note_forced": "Nước {move} là nước duy nhất không thua.",
    "note_makes_open_four": "Nước {move} tạo bốn mở: đối phương không thể chặn được nữa.",
    "note_makes_four_three": "Nước {move} tạo thế bốn-ba.",
    "note_makes_four": "Nước {move} tạo đường bốn.",
    "note_makes_double_three": "Nước {move} tạo thế ba-ba (hai đường ba mở).",
    "note_makes_three": "Nước {move} tạo đường ba mở.",
    "note_starts_win": "Nước {move} tạo {threat} và mở đầu đòn thắng {how}: {line}.",
    "note_starts_win_quiet": "Nước {move} mở đầu đòn thắng {how}: {line}.",
    "note_blocks_four": "Nước {move} chặn đường bốn của {opp}.",
    "note_blocks_three": "Nước {move} chặn đường ba mở của {opp}.",
    "note_better": "Nước tốt nhất là {best} ({line}); khả năng thắng {before}% → {after}%.",
    # báo cáo
    "title": "Phân tích ván cờ",
    "summary": "Tổng kết",
    "accuracy": "Độ chính xác",
    "moves": "Các nước đi",
    "move": "Nước đi",
    "player": "Người chơi",
    "classification": "Đánh giá",
    "best_move": "Nước tốt nhất",
    "best_line": "Biến tốt nhất",
    "engine_lines": "Các biến của máy",
    "win_chance": "Khả năng thắng",
    "win_chance_of": "Khả năng thắng của {player}",
    "explanation": "Giải thích",
    "critical_moments": "Thời điểm then chốt",
    "turning_point": "Bước ngoặt",
    "opening": "Khai cuộc",
    "result": "Kết quả",
    "rule": "Luật",
    "budget": "Phân tích",
    "none": "không có",
    "result_black": "Đen thắng",
    "result_white": "Trắng thắng",
    "result_draw": "Hòa",
    "result_none": "Chưa kết thúc",
    "first": "Đầu",
    "previous": "Trước",
    "next": "Sau",
    "last": "Cuối",
    "show_best": "Xem biến tốt nhất",
    "start_position": "Thế cờ ban đầu",
    "keys_hint": "Phím: ← → chuyển nước, Home/End về đầu/cuối, B xem biến tốt nhất.",
    "interrupted": "Đã dừng giữa chừng: chỉ các nước đã phân tích xong được đánh giá.",
    "move_n": "Nước {n}",
    "cached": "{n}/{total} thế cờ lấy từ bộ nhớ đệm",
    # cờ vua
    "cat_missed_mate": "Bỏ lỡ chiếu hết",
    "cat_allowed_mate": "Để bị chiếu hết",
    "cat_hanging_piece": "Bỏ quân",
    "cat_material_loss": "Mất quân",
    "cat_missed_capture": "Bỏ lỡ nước bắt quân",
    "piece_pawn": "tốt",
    "piece_knight": "mã",
    "piece_bishop": "tượng",
    "piece_rook": "xe",
    "piece_queen": "hậu",
    "piece_king": "vua",
    "ch_note_checkmate": "{move} chiếu hết: {player} thắng.",
    "ch_note_lost": "{player} đã thua từ trước: {opp} chiếu hết bắt buộc dù {player} đi nước nào.",
    "ch_note_missed_mate": (
        "{player} có nước chiếu hết sau {n} nước: "
        "{line}. Nước đi {move} bỏ lỡ cơ hội đó."
    ),
    "ch_note_keeps_mate": (
        "{move} giữ được đòn chiếu hết bắt "
        "buộc (chiếu hết sau {n} nước: {line})."
    ),
    "ch_note_only_move": "{move} là nước đi hợp lệ duy nhất.",
    "ch_note_only_defence": "{move} là nước duy nhất không bị chiếu hết.",
    "ch_note_allowed_mate": "{move} để đối phương chiếu hết: {opp} chiếu hết sau {n} nước: {line}.",
    "ch_note_hanging": (
        "{move} bỏ mặc quân {piece} ở {square} không "
        "được bảo vệ: {opp} bắt quân bằng {capture}."
    ),
    "ch_note_material_loss": (
        "{move} làm mất quân: {opp} bắt "
        "quân {piece} ở {square} bằng {capture}."
    ),
    "ch_note_missed_capture": "{move} bỏ lỡ nước {best}, bắt được quân {piece} ở {square}.",
    "ch_note_sacrifice": "{move} thí quân {piece}: máy đánh giá đây là nước hay.",
    "ch_note_capture": "{move} bắt quân {piece}.",
    "ch_note_check": "{move} chiếu tướng.",
    "rule_chess": "cờ vua",
}
